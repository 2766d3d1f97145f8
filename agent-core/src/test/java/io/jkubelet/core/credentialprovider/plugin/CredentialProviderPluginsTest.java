package io.jkubelet.core.credentialprovider.plugin;

import io.jkubelet.core.credentialprovider.DockerConfigFiles;
import io.jkubelet.core.credentialprovider.NodeCredentialProviders;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.jkubelet.core.credentialprovider.plugin.PluginScripts.V1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The two flags set up as upstream's {@code RegisterCredentialProviderPlugins}: what ends the start, and why. */
class CredentialProviderPluginsTest {
    @TempDir Path dir;
    private final FakeClock clock = new FakeClock();

    private Path bin() throws Exception {
        return Files.createDirectories(dir.resolve("bin"));
    }

    private String config(String providers) throws Exception {
        return Files.writeString(dir.resolve("config.yaml"), """
                apiVersion: kubelet.config.k8s.io/v1
                kind: CredentialProviderConfig
                providers:
                """ + providers).toString();
    }

    private static String provider(String name) {
        return """
                - name: %s
                  matchImages: ["*.r.io"]
                  defaultCacheDuration: 5m
                  apiVersion: credentialprovider.kubelet.k8s.io/v1
                """.formatted(name);
    }

    private static String failure(CredentialProviderPlugins.Flags flags) {
        try {
            CredentialProviderPlugins.nodeProviders(DockerConfigFiles.SearchPaths.NONE, flags, new FakeClock());
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError("the plugins were set up");
    }

    @Test
    void withoutEitherFlagThereAreNoPluginsAndTheNodesConfigJsonStays() {
        NodeCredentialProviders providers = CredentialProviderPlugins.nodeProviders(DockerConfigFiles.SearchPaths.NONE,
                CredentialProviderPlugins.Flags.NONE, clock);
        assertThat(providers.names()).containsExactly(NodeCredentialProviders.DOCKERCFG);
    }

    @Test
    void eachProviderIsItsExecutableInTheBinDirAskedInTheOrderOfTheNames() throws Exception {
        Path bin = bin();
        PluginScripts.answering(bin, "zeta", PluginScripts.response(V1, "Image", null, "a.r.io", "z", "p"));
        PluginScripts.answering(bin, "acr", PluginScripts.response(V1, "Image", null, "a.r.io", "a", "p"));
        String config = config(provider("zeta") + provider("acr"));

        NodeCredentialProviders providers = CredentialProviderPlugins.nodeProviders(DockerConfigFiles.SearchPaths.NONE,
                new CredentialProviderPlugins.Flags(config, bin.toString()), clock);

        assertThat(providers.names()).containsExactly(".dockercfg", "acr", "zeta");
        assertThat(providers.keyring("a.r.io/app").keyring().lookup("a.r.io/app:1"))
                .extracting(a -> a.username()).containsExactly("a", "z");
    }

    @Test
    void theTwoFlagsGoTogether() throws Exception {
        String config = config(provider("p"));
        assertThat(failure(new CredentialProviderPlugins.Flags(config, ""))).isEqualTo("Failed to register CRI auth"
                + " plugins: plugin binary directory  did not exist (--image-credential-provider-bin-dir is required"
                + " with --image-credential-provider-config)");
        assertThat(failure(new CredentialProviderPlugins.Flags("", bin().toString()))).isEqualTo("Failed to register"
                + " CRI auth plugins: credential provider config path is empty (--image-credential-provider-config is"
                + " required with --image-credential-provider-bin-dir)");
    }

    @Test
    void aMissingBinDirOrConfigFileIsNamed() throws Exception {
        Path missingBin = dir.resolve("no-bin");
        assertThat(failure(new CredentialProviderPlugins.Flags(config(provider("p")), missingBin.toString())))
                .isEqualTo("Failed to register CRI auth plugins: plugin binary directory " + missingBin + " did not exist");
        Path missingConfig = dir.resolve("no-config.yaml");
        assertThat(failure(new CredentialProviderPlugins.Flags(missingConfig.toString(), bin().toString())))
                .isEqualTo("Failed to register CRI auth plugins: unable to read external registry credential provider"
                        + " configuration from \"" + missingConfig + "\": open " + missingConfig
                        + ": no such file or directory");
    }

    @Test
    void anInvalidConfigIsRefusedNamingTheFileAndTheField() throws Exception {
        String config = config(provider("p") + provider("p"));
        assertThat(failure(new CredentialProviderPlugins.Flags(config, bin().toString()))).isEqualTo("Failed to"
                + " register CRI auth plugins: failed to validate credential provider config " + config
                + ": providers.name: Duplicate value: \"p\"");
        String undecodable = config("- name: 5\n");
        assertThat(failure(new CredentialProviderPlugins.Flags(undecodable, bin().toString()))).isEqualTo("Failed to"
                + " register CRI auth plugins: error decoding config " + undecodable + ": json: cannot unmarshal number"
                + " into Go struct field CredentialProvider.providers.name of type string");
    }

    @Test
    void aProviderWhoseExecutableIsMissingOrCannotRunIsRefused() throws Exception {
        Path bin = bin();
        String config = config(provider("ecr"));
        assertThat(failure(new CredentialProviderPlugins.Flags(config, bin.toString()))).isEqualTo("Failed to register"
                + " CRI auth plugins: plugin binary executable " + bin.resolve("ecr") + " did not exist");
        Files.writeString(bin.resolve("ecr"), "#!/bin/sh\n");
        assertThat(failure(new CredentialProviderPlugins.Flags(config, bin.toString()))).isEqualTo("Failed to register"
                + " CRI auth plugins: error inspecting binary executable " + bin.resolve("ecr") + ": exec: \""
                + bin.resolve("ecr") + "\": permission denied");
        Files.delete(bin.resolve("ecr"));
        Files.createDirectory(bin.resolve("ecr"));
        assertThat(failure(new CredentialProviderPlugins.Flags(config, bin.toString()))).endsWith(": is a directory");
    }

    @Test
    void aPluginMayNotTakeTheNameOfTheNodesOwnProvider() throws Exception {
        Path bin = bin();
        PluginScripts.answering(bin, ".dockercfg", PluginScripts.response(V1, "Image", null));
        String config = config(provider(".dockercfg"));
        assertThat(failure(new CredentialProviderPlugins.Flags(config, bin.toString()))).isEqualTo("Failed to register"
                + " CRI auth plugins: Credential provider \".dockercfg\" was registered twice");
    }

    @Test
    void registeringRunsNoPlugin() throws Exception {
        Path bin = bin();
        PluginScripts.answering(bin, "p", PluginScripts.response(V1, "Image", null));
        Map<String, PluginProvider> plugins = CredentialProviderPlugins.register(
                new CredentialProviderPlugins.Flags(config(provider("p")), bin.toString()), clock);
        assertThat(plugins).containsOnlyKeys("p");
        assertThat(PluginScripts.runs(bin, "p")).isZero();
    }
}
