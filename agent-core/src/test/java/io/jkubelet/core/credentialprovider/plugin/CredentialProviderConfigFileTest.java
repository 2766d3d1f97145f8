package io.jkubelet.core.credentialprovider.plugin;

import io.jkubelet.core.credentialprovider.plugin.CredentialProviderConfig.CredentialProvider;
import io.jkubelet.core.credentialprovider.plugin.CredentialProviderConfig.ExecEnvVar;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reading the {@code --image-credential-provider-config} file: every version, YAML and JSON, and every error. */
class CredentialProviderConfigFileTest {
    @TempDir Path dir;

    private String write(String content) throws Exception {
        return Files.writeString(dir.resolve("credential-providers.yaml"), content).toString();
    }

    /** Upstream's "config with multiple providers" case, in each version v1.30 reads. */
    @ParameterizedTest
    @ValueSource(strings = {"v1", "v1beta1", "v1alpha1"})
    void everyVersionReadsTheSame(String version) throws Exception {
        String file = write("""
                ---
                kind: CredentialProviderConfig
                apiVersion: kubelet.config.k8s.io/%s
                providers:
                  - name: test1
                    matchImages:
                    - "registry.io/one"
                    defaultCacheDuration: 10m
                    apiVersion: credentialprovider.kubelet.k8s.io/%s
                  - name: test2
                    matchImages:
                    - "registry.io/two"
                    - "*.registry.io"
                    defaultCacheDuration: 0s
                    apiVersion: credentialprovider.kubelet.k8s.io/%s
                    args:
                    - --v=5
                    env:
                    - name: FOO
                      value: BAR
                """.formatted(version, version, version));

        CredentialProviderConfigFile.Decoded decoded = CredentialProviderConfigFile.read(file);

        assertThat(decoded.unknownFields()).isEmpty();
        assertThat(decoded.config().providers()).containsExactly(
                new CredentialProvider("test1", List.of("registry.io/one"), Duration.ofMinutes(10),
                        "credentialprovider.kubelet.k8s.io/" + version, List.of(), List.of()),
                new CredentialProvider("test2", List.of("registry.io/two", "*.registry.io"), Duration.ZERO,
                        "credentialprovider.kubelet.k8s.io/" + version, List.of("--v=5"),
                        List.of(new ExecEnvVar("FOO", "BAR"))));
    }

    @Test
    void jsonReadsAsYamlDoes() throws Exception {
        String file = write("""
                {"kind": "CredentialProviderConfig", "apiVersion": "kubelet.config.k8s.io/v1",
                 "providers": [{"name": "ecr", "matchImages": ["*.dkr.ecr.*.amazonaws.com"], "defaultCacheDuration": "12h",
                                "apiVersion": "credentialprovider.kubelet.k8s.io/v1", "env": [{"name": "AWS_PROFILE"}]}]}
                """);

        CredentialProvider ecr = CredentialProviderConfigFile.read(file).config().providers().getFirst();

        assertThat(ecr.defaultCacheDuration()).isEqualTo(Duration.ofHours(12));
        assertThat(ecr.env()).containsExactly(new ExecEnvVar("AWS_PROFILE", ""));
    }

    @Test
    void aMissingDefaultCacheDurationStaysUnsetForValidationToRefuse() throws Exception {
        String file = write("""
                kind: CredentialProviderConfig
                apiVersion: kubelet.config.k8s.io/v1
                providers:
                - {name: p, matchImages: [r.io], apiVersion: credentialprovider.kubelet.k8s.io/v1, defaultCacheDuration: null}
                """);
        assertThat(CredentialProviderConfigFile.read(file).config().providers().getFirst().defaultCacheDuration()).isNull();
    }

    @Test
    void unknownFieldsArePassedOverAndNamed() throws Exception {
        String file = write("""
                kind: CredentialProviderConfig
                apiVersion: kubelet.config.k8s.io/v1
                extra: 1
                providers:
                - name: p
                  matchImages: [r.io]
                  defaultCacheDuration: 1m
                  apiVersion: credentialprovider.kubelet.k8s.io/v1
                  tokenAttributes: {serviceAccountTokenAudience: a}
                  env: [{name: A, value: b, valueFrom: x}]
                """);

        CredentialProviderConfigFile.Decoded decoded = CredentialProviderConfigFile.read(file);

        assertThat(decoded.unknownFields()).containsExactly("extra", "providers[0].tokenAttributes",
                "providers[0].env[0].valueFrom");
        assertThat(decoded.config().providers()).hasSize(1);
    }

    @Test
    void anEmptyPathAMissingFileAndADirectoryAreRefused() throws Exception {
        assertThatThrownBy(() -> CredentialProviderConfigFile.read(""))
                .hasMessage("credential provider config path is empty");
        String missing = dir.resolve("nope.yaml").toString();
        assertThatThrownBy(() -> CredentialProviderConfigFile.read(missing)).hasMessage(
                "unable to read external registry credential provider configuration from \"" + missing + "\": open "
                        + missing + ": no such file or directory");
        assertThatThrownBy(() -> CredentialProviderConfigFile.read(dir.toString())).hasMessage(
                "unable to read external registry credential provider configuration from \"" + dir + "\": read "
                        + dir + ": is a directory");
    }

    @Test
    void wrongKindsAndVersionsAreRefusedNamingTheFile() throws Exception {
        String kind = write("kind: WrongKind\napiVersion: kubelet.config.k8s.io/v1alpha1\n");
        assertThatThrownBy(() -> CredentialProviderConfigFile.read(kind)).hasMessage("error decoding config " + kind
                + ": no kind \"WrongKind\" is registered for version \"kubelet.config.k8s.io/v1alpha1\" in scheme"
                + " \"pkg/credentialprovider/plugin/plugin.go\"");
        String group = write("kind: CredentialProviderConfig\napiVersion: foobar/v1alpha1\n");
        assertThatThrownBy(() -> CredentialProviderConfigFile.read(group)).hasMessage("error decoding config " + group
                + ": no kind \"CredentialProviderConfig\" is registered for version \"foobar/v1alpha1\" in scheme"
                + " \"pkg/credentialprovider/plugin/plugin.go\"");
        String kubelet = write("kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\n");
        assertThatThrownBy(() -> CredentialProviderConfigFile.read(kubelet)).hasMessage("error decoding config "
                + kubelet + ": failed to decode \"KubeletConfiguration\" (wrong Kind)");
        String noKind = write("apiVersion: kubelet.config.k8s.io/v1\nproviders: []\n");
        assertThatThrownBy(() -> CredentialProviderConfigFile.read(noKind)).hasMessage("error decoding config " + noKind
                + ": Object 'Kind' is missing in '{\"apiVersion\":\"kubelet.config.k8s.io/v1\",\"providers\":[]}'");
        String noVersion = write("kind: CredentialProviderConfig\n");
        assertThatThrownBy(() -> CredentialProviderConfigFile.read(noVersion)).hasMessage("error decoding config "
                + noVersion + ": Object 'apiVersion' is missing in '{\"kind\":\"CredentialProviderConfig\"}'");
        String empty = write("");
        assertThatThrownBy(() -> CredentialProviderConfigFile.read(empty)).hasMessage("error decoding config " + empty
                + ": Object 'Kind' is missing in 'null'");
        String tooManySlashes = write("kind: CredentialProviderConfig\napiVersion: a/b/c\n");
        assertThatThrownBy(() -> CredentialProviderConfigFile.read(tooManySlashes)).hasMessage("error decoding config "
                + tooManySlashes + ": unexpected GroupVersion string: a/b/c");
    }

    @Test
    void valuesOfTheWrongTypeAreRefusedInGosWords() throws Exception {
        String head = "kind: CredentialProviderConfig\napiVersion: kubelet.config.k8s.io/v1beta1\n";
        String[][] cases = {
                {"providers: {name: p}", "json: cannot unmarshal object into Go struct field CredentialProviderConfig"
                        + ".providers of type []v1beta1.CredentialProvider"},
                {"providers: [p]", "json: cannot unmarshal string into Go struct field CredentialProviderConfig"
                        + ".providers of type v1beta1.CredentialProvider"},
                {"providers: [{name: 5}]", "json: cannot unmarshal number into Go struct field CredentialProvider"
                        + ".providers.name of type string"},
                {"providers: [{name: p, matchImages: r.io}]", "json: cannot unmarshal string into Go struct field"
                        + " CredentialProvider.providers.matchImages of type []string"},
                {"providers: [{name: p, args: [1]}]", "json: cannot unmarshal number into Go struct field"
                        + " CredentialProvider.providers.args of type string"},
                {"providers: [{name: p, env: [{name: A, value: yes}]}]", "json: cannot unmarshal bool into Go struct"
                        + " field ExecEnvVar.providers.env.value of type string"},
                {"providers: [{name: p, defaultCacheDuration: 10}]",
                        "json: cannot unmarshal number into Go value of type string"},
                {"providers: [{name: p, defaultCacheDuration: 10 minutes}]", "time: unknown unit \" minutes\" in"
                        + " duration \"10 minutes\""},
        };
        for (String[] c : cases) {
            String file = write(head + c[0] + "\n");
            assertThatThrownBy(() -> CredentialProviderConfigFile.read(file)).as(c[0])
                    .hasMessage("error decoding config " + file + ": " + c[1]);
        }
        String notYaml = write(head + "providers: [\n");
        assertThatThrownBy(() -> CredentialProviderConfigFile.read(notYaml))
                .hasMessageStartingWith("error decoding config " + notYaml + ": ");
    }
}
