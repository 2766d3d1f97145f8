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
        ctr("images", "rm", CredentialProviderPlugin.PRIVATE_IMAGE); // only this name: containerd keeps its others
        try {
            CredentialProviderPlugin.pullsThroughThePlugin(this, new CredentialProviderPlugin(dir));
        } finally {
            ctr("images", "rm", CredentialProviderPlugin.PRIVATE_IMAGE);
        }
    }
}
