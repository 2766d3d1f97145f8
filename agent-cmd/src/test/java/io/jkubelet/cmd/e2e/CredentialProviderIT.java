package io.jkubelet.cmd.e2e;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Credential provider plugins on Docker through the built jar: a plugin written for the test pulls an image of the
 * local htpasswd registry that nothing else on the node could, its cache spares a second run, a failing plugin is
 * named in the pod's ErrImagePull; a bad configuration ends the start naming the file and the field.
 */
class CredentialProviderIT extends AgentTestBase {

    @Test
    void aPluginsCredentialsPullAPrivateImageItsCacheIsHonouredAndItsFailureIsNamed() throws Exception {
        ImagePullIT.registriesRun();
        Docker.run("rmi", CredentialProviderPlugin.PRIVATE_IMAGE); // only this name: the image stays under its others
        try {
            CredentialProviderPlugin.pullsThroughThePlugin(this, new CredentialProviderPlugin(dir));
        } finally {
            agent.stop();
            Docker.removeAll(agent.nodeName);
            Docker.run("rmi", CredentialProviderPlugin.PRIVATE_IMAGE);
        }
    }

    @Test
    void aBadConfigurationOrALoneFlagEndsTheStart() throws Exception {
        CredentialProviderPlugin plugin = new CredentialProviderPlugin(dir);
        plugin.answers();
        Files.writeString(plugin.config, Files.readString(plugin.config).replace("  defaultCacheDuration: 1m\n", ""));
        assertThatThrownBy(() -> startAgent(plugin.flags())).hasMessageContaining("Failed to register CRI auth plugins:"
                + " failed to validate credential provider config " + plugin.config + ": providers.defaultCacheDuration:"
                + " Required value: defaultCacheDuration is required");
        agent.removeCgroups();

        assertThatThrownBy(() -> startAgent("--image-credential-provider-config", plugin.config.toString()))
                .hasMessageContaining("Failed to register CRI auth plugins: plugin binary directory  did not exist"
                        + " (--image-credential-provider-bin-dir is required with --image-credential-provider-config)");
        assertThat(agent.logText()).doesNotContain("jkubelet started");
    }
}
