package io.jkubelet.cmd.e2e;

import org.junit.jupiter.api.Test;

/**
 * Credential provider plugins on containerd through the built jar: the plugin's credentials go in the CRI's
 * AuthConfig; its cache and its failure as on Docker ({@link CredentialProviderIT}).
 */
class ContainerdCredentialProviderIT extends ContainerdTestBase {

    @Test
    void aPluginsCredentialsPullAPrivateImageItsCacheIsHonouredAndItsFailureIsNamed() throws Exception {
        ImagePullIT.registriesRun();
        removeTheNamesThisTestPulls(); // only these names: containerd keeps the image under its others
        try {
            CredentialProviderPlugin.pullsThroughThePlugin(this, new CredentialProviderPlugin(dir));
        } finally {
            // A registry name left behind becomes the image's first repo tag, which containerd reports as the image
            // of every later container of that image (the other containerd tests' "docker.io/jkubelet/busybox:1.0").
            removeTheNamesThisTestPulls();
        }
    }

    private static void removeTheNamesThisTestPulls() throws Exception {
        ctr("images", "rm", CredentialProviderPlugin.PRIVATE_IMAGE, CredentialProviderPlugin.PUBLIC_IMAGE);
    }
}
