package io.jkubelet.core.apis.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KubeletConfigFileTest {

    /** What kubeadm v1.30 writes to /var/lib/kubelet/config.yaml. */
    static final String KUBEADM_CONFIG = """
            apiVersion: kubelet.config.k8s.io/v1beta1
            authentication:
              anonymous:
                enabled: false
              webhook:
                cacheTTL: 0s
                enabled: true
              x509:
                clientCAFile: /etc/kubernetes/pki/ca.crt
            authorization:
              mode: Webhook
              webhook:
                cacheAuthorizedTTL: 0s
                cacheUnauthorizedTTL: 0s
            cgroupDriver: systemd
            clusterDNS:
            - 10.96.0.10
            clusterDomain: cluster.local
            containerRuntimeEndpoint: ""
            cpuManagerReconcilePeriod: 0s
            evictionPressureTransitionPeriod: 0s
            fileCheckFrequency: 0s
            healthzBindAddress: 127.0.0.1
            healthzPort: 10248
            httpCheckFrequency: 0s
            imageMaximumGCAge: 0s
            imageMinimumGCAge: 0s
            kind: KubeletConfiguration
            logging:
              flushFrequency: 0
              options:
                json:
                  infoBufferSize: "0"
                text:
                  infoBufferSize: "0"
              verbosity: 0
            memorySwap: {}
            nodeStatusReportFrequency: 0s
            nodeStatusUpdateFrequency: 0s
            rotateCertificates: true
            runtimeRequestTimeout: 0s
            shutdownGracePeriod: 0s
            shutdownGracePeriodCriticalPods: 0s
            staticPodPath: /etc/kubernetes/manifests
            streamingConnectionIdleTimeout: 0s
            syncFrequency: 0s
            volumeStatsAggPeriod: 0s
            """;

    @TempDir
    Path dir;

    @Test
    void loadsTheFileKubeadmWritesAndFillsItsZeroValuesWithDefaults() throws Exception {
        KubeletConfiguration config = KubeletConfigFile.load(write("config.yaml", KUBEADM_CONFIG));

        assertThat(config.cgroupDriver()).isEqualTo("systemd");
        assertThat(config.clusterDNS()).containsExactly("10.96.0.10");
        assertThat(config.clusterDomain()).isEqualTo("cluster.local");
        assertThat(config.staticPodPath()).isEqualTo("/etc/kubernetes/manifests");
        assertThat(config.rotateCertificates()).isTrue();
        assertThat(config.authentication().x509().clientCAFile()).isEqualTo("/etc/kubernetes/pki/ca.crt");
        assertThat(config.authentication().webhook().cacheTTL()).isEqualTo(Duration.ofMinutes(2));
        assertThat(config.authorization().webhook().cacheAuthorizedTTL()).isEqualTo(Duration.ofMinutes(5));
        assertThat(config.syncFrequency()).isEqualTo(Duration.ofMinutes(1));
        assertThat(config.fileCheckFrequency()).isEqualTo(Duration.ofSeconds(20));
        assertThat(config.nodeStatusReportFrequency()).isEqualTo(Duration.ofMinutes(5));
        assertThat(config.containerRuntimeEndpoint()).isEqualTo("unix:///var/run/docker.sock");
        assertThat(config.logging().flushFrequency()).isEqualTo(new TimeOrMetaDuration(Duration.ofSeconds(5), true));
        assertThat(KubeletConfigurationValidator.validate(config)).isEmpty();
    }

    @Test
    void jsonAndYamlOfTheSameSettingsLoadTheSame() throws Exception {
        Path yaml = write("c.yaml", """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                port: 11250
                readOnlyPort: 10255
                syncFrequency: 30s
                evictionHard:
                  memory.available: 200Mi
                staticPodURLHeader:
                  X-A: [one, two]
                featureGates:
                  NodeSwap: false
                memoryThrottlingFactor: 1
                """);
        Path json = write("c.json", """
                {"apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration",
                 "port": 11250, "readOnlyPort": 10255, "syncFrequency": "30s",
                 "evictionHard": {"memory.available": "200Mi"},
                 "staticPodURLHeader": {"X-A": ["one", "two"]},
                 "featureGates": {"NodeSwap": false}, "memoryThrottlingFactor": 1}
                """);

        KubeletConfiguration fromYaml = KubeletConfigFile.load(yaml);
        KubeletConfiguration fromJson = KubeletConfigFile.load(json);

        assertThat(fromYaml.port()).isEqualTo(11250);
        assertThat(fromYaml.readOnlyPort()).isEqualTo(10255);
        assertThat(fromYaml.syncFrequency()).isEqualTo(Duration.ofSeconds(30));
        // An explicit evictionHard replaces the whole default map, as upstream.
        assertThat(fromYaml.evictionHard()).containsExactly(Map.entry("memory.available", "200Mi"));
        assertThat(fromYaml.staticPodURLHeader()).containsEntry("X-A", List.of("one", "two"));
        assertThat(fromYaml.memoryThrottlingFactor()).isEqualTo(1.0);
        assertThat(KubeletConfigCodec.toJson(fromJson)).isEqualTo(KubeletConfigCodec.toJson(fromYaml));
    }

    @Test
    void relativePathsResolveAgainstTheFilesDirectory() throws Exception {
        Path sub = Files.createDirectories(dir.resolve("etc/kubelet"));
        String body = """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                staticPodPath: manifests
                tlsCertFile: pki/../pki/kubelet.crt
                tlsPrivateKeyFile: /abs/kubelet.key
                resolvConf: ./resolv.conf
                podLogsDir: logs/pods
                volumePluginDir: plugins/
                authentication:
                  x509:
                    clientCAFile: ca.crt
                """;
        KubeletConfiguration config = KubeletConfigFile.load(write("etc/kubelet/config.yaml", body));

        assertThat(config.staticPodPath()).isEqualTo(sub.resolve("manifests").toString());
        assertThat(config.tlsCertFile()).isEqualTo(sub.resolve("pki/kubelet.crt").toString());
        assertThat(config.tlsPrivateKeyFile()).isEqualTo("/abs/kubelet.key");
        assertThat(config.resolvConf()).isEqualTo(sub.resolve("resolv.conf").toString());
        assertThat(config.podLogsDir()).isEqualTo(sub.resolve("logs/pods").toString());
        assertThat(config.volumePluginDir()).isEqualTo(sub.resolve("plugins").toString());
        assertThat(config.authentication().x509().clientCAFile()).isEqualTo(sub.resolve("ca.crt").toString());
    }

    @Test
    void relativePathsResolveInJsonFilesToo() throws Exception {
        Files.createDirectories(dir.resolve("conf"));
        KubeletConfiguration config = KubeletConfigFile.load(write("conf/k.json", """
                {"apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration",
                 "staticPodPath": "pods", "resolvConf": ""}
                """));

        assertThat(config.staticPodPath()).isEqualTo(dir.resolve("conf/pods").toString());
        // Empty means "no DNS from the host": it is not a path to resolve.
        assertThat(config.resolvConf()).isEmpty();
    }

    @Test
    void aFileWithOnlyKindAndApiVersionYieldsExactlyTheDefaults() throws Exception {
        KubeletConfiguration config = KubeletConfigFile.load(write("min.yaml", """
                kind: KubeletConfiguration
                apiVersion: kubelet.config.k8s.io/v1beta1
                """));

        assertThat(KubeletConfigCodec.toJson(config))
                .isEqualTo(KubeletConfigCodec.toJson(KubeletConfigurationDefaults.newDefaulted()));
    }

    @Test
    void fieldsJkubeletDoesNotUseAreKeptAndPrintedBack() throws Exception {
        KubeletConfiguration config = KubeletConfigFile.load(write("extra.yaml", """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                cpuManagerPolicy: static
                reservedSystemCPUs: "0-1"
                systemReserved:
                  cpu: 500m
                  memory: 1Gi
                registerWithTaints:
                - key: example.com/dedicated
                  value: infra
                  effect: NoSchedule
                shutdownGracePeriodByPodPriority:
                - priority: 100000
                  shutdownGracePeriodSeconds: 20
                reservedMemory:
                - numaNode: 0
                  limits:
                    memory: 1Gi
                tracing:
                  samplingRatePerMillion: 100
                logging:
                  format: json
                  flushFrequency: 2s
                  verbosity: 3
                """));

        String json = KubeletConfigCodec.toJson(config);
        assertThat(json)
                .contains("\"cpuManagerPolicy\":\"static\"")
                .contains("\"reservedSystemCPUs\":\"0-1\"")
                .contains("\"systemReserved\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"}")
                .contains("\"registerWithTaints\":[{\"key\":\"example.com/dedicated\",\"value\":\"infra\","
                        + "\"effect\":\"NoSchedule\"}]")
                .contains("\"shutdownGracePeriodByPodPriority\":[{\"priority\":100000,"
                        + "\"shutdownGracePeriodSeconds\":20}]")
                .contains("\"reservedMemory\":[{\"numaNode\":0,\"limits\":{\"memory\":\"1Gi\"}}]")
                .contains("\"tracing\":{\"samplingRatePerMillion\":100}")
                .contains("\"logging\":{\"format\":\"json\",\"flushFrequency\":\"2s\",\"verbosity\":3,");
    }

    static List<Arguments> badFiles() {
        String head = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n";
        return List.of(
                Arguments.of("empty", "", "the file is empty"),
                Arguments.of("not an object", "- a\n- b\n", "expected a KubeletConfiguration object, got array"),
                Arguments.of("no apiVersion", "kind: KubeletConfiguration\n", "apiVersion is missing"),
                Arguments.of("wrong apiVersion", "apiVersion: kubelet.config.k8s.io/v1\nkind: KubeletConfiguration\n",
                        "apiVersion \"kubelet.config.k8s.io/v1\" is not supported: expected "
                                + "kubelet.config.k8s.io/v1beta1"),
                Arguments.of("no kind", "apiVersion: kubelet.config.k8s.io/v1beta1\n", "kind is missing"),
                Arguments.of("wrong kind", "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: Pod\n",
                        "kind \"Pod\" is not supported: expected KubeletConfiguration"),
                Arguments.of("unknown field", head + "port: 1\nfoo: bar\n", "line 4, column 6: unknown field \"foo\""),
                Arguments.of("case matters", head + "Port: 1\n", "unknown field \"Port\""),
                Arguments.of("unknown nested field", head + "authentication:\n  x509:\n    caFile: x\n",
                        "line 5, column 13: unknown field \"authentication.x509.caFile\""),
                Arguments.of("string for int", head + "port: \"10250\"\n",
                        "line 3, column 7: field \"port\": cannot unmarshal string \"10250\" into int32"),
                Arguments.of("float for int", head + "maxPods: 1.5\n",
                        "field \"maxPods\": cannot unmarshal number 1.5 into int32"),
                Arguments.of("int overflow", head + "port: 99999999999\n",
                        "field \"port\": number 99999999999 overflows int32"),
                Arguments.of("string for bool", head + "failSwapOn: \"false\"\n",
                        "field \"failSwapOn\": cannot unmarshal string \"false\" into bool"),
                Arguments.of("number for string", head + "cgroupDriver: 1\n",
                        "field \"cgroupDriver\": cannot unmarshal number 1 into string"),
                Arguments.of("list for string", head + "address: [a]\n",
                        "field \"address\": cannot unmarshal array into string"),
                Arguments.of("bad duration", head + "syncFrequency: 1x\n",
                        "line 3, column 16: field \"syncFrequency\": time: unknown unit \"x\" in duration \"1x\""),
                Arguments.of("number for duration", head + "syncFrequency: 60\n",
                        "field \"syncFrequency\": expected a duration string such as \"1m0s\", got number 60"),
                Arguments.of("bad nested duration", head + "authorization:\n  webhook:\n    cacheAuthorizedTTL: soon\n",
                        "field \"authorization.webhook.cacheAuthorizedTTL\": time: invalid duration \"soon\""),
                Arguments.of("number in string map", head + "systemReserved:\n  cpu: 1\n",
                        "field \"systemReserved.cpu\": cannot unmarshal number 1 into string"),
                Arguments.of("duplicate field", head + "port: 1\nport: 2\n", "duplicate field \"port\""),
                Arguments.of("yaml syntax", head + "port: [1\n", "line "),
                Arguments.of("json syntax", "{\"apiVersion\": \"kubelet.config.k8s.io/v1beta1\", "
                        + "\"kind\": \"KubeletConfiguration\", \"port\": }", "line 1, column "),
                Arguments.of("json trailing garbage", "{\"apiVersion\": \"kubelet.config.k8s.io/v1beta1\", "
                        + "\"kind\": \"KubeletConfiguration\"} x", "line 1, column "));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badFiles")
    void badFilesAreRejectedNamingTheFileAndTheProblem(String name, String content, String expected)
            throws IOException {
        Path file = write("bad.yaml", content);

        assertThatThrownBy(() -> KubeletConfigFile.load(file))
                .isInstanceOf(KubeletConfigLoadException.class)
                .hasMessageStartingWith("failed to load kubelet config file, path: " + file + ", error: ")
                .hasMessageContaining(expected);
    }

    /**
     * YAML 1.1's plain scalars, as the kubelet's go-yaml v2 reads them (and Jackson 2 with SnakeYAML did before):
     * Jackson 3's YAML module, on snakeyaml-engine, reads YAML 1.2, where every one of these is a string.
     */
    static List<Arguments> yaml11Scalars() {
        return List.of(
                scalar("failSwapOn: no", KubeletConfiguration::failSwapOn, false),
                scalar("failSwapOn: Off", KubeletConfiguration::failSwapOn, false),
                scalar("failSwapOn: YES", KubeletConfiguration::failSwapOn, true),
                scalar("serializeImagePulls: on", KubeletConfiguration::serializeImagePulls, true),
                scalar("featureGates:\n  Foo: yes", c -> c.featureGates().get("Foo"), true),
                scalar("port: 0755", KubeletConfiguration::port, 493),
                scalar("port: 0x1F", KubeletConfiguration::port, 31),
                scalar("port: 0b101", KubeletConfiguration::port, 5),
                scalar("port: 10_250", KubeletConfiguration::port, 10250),
                scalar("port: +12", KubeletConfiguration::port, 12),
                scalar("memoryThrottlingFactor: .5", KubeletConfiguration::memoryThrottlingFactor, 0.5),
                // A null leaves the field unset, so the default (true) applies.
                scalar("failSwapOn: ~", KubeletConfiguration::failSwapOn, true),
                scalar("failSwapOn: Null", KubeletConfiguration::failSwapOn, true),
                // Quoted, or not a YAML 1.1 word: a string, whatever it looks like.
                scalar("cgroupDriver: 'yes'", KubeletConfiguration::cgroupDriver, "yes"),
                scalar("clusterDomain: 0o755", KubeletConfiguration::clusterDomain, "0o755"));
    }

    private static Arguments scalar(String line, Function<KubeletConfiguration, Object> field, Object expected) {
        return Arguments.of(line, field, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("yaml11Scalars")
    void plainScalarsAreReadAsYaml11(String line, Function<KubeletConfiguration, Object> field,
            Object expected) throws Exception {
        Path file = write("kubelet.yaml",
                "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n" + line + "\n");

        assertThat(field.apply(KubeletConfigFile.load(file))).isEqualTo(expected);
    }

    static List<Arguments> yaml11Refusals() {
        String head = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n";
        return List.of(
                // YAML 1.1 words are booleans, not strings, wherever they are written.
                Arguments.of(head + "cgroupDriver: off\n", "field \"cgroupDriver\": cannot unmarshal bool off into string"),
                Arguments.of(head + "port: yes\n", "field \"port\": cannot unmarshal bool yes into int32"),
                Arguments.of(head + "systemReserved:\n  cpu: 0755\n",
                        "field \"systemReserved.cpu\": cannot unmarshal number 0755 into string"),
                // Go's JSON encoder refuses infinities and NaN (upstream fails converting the YAML to JSON).
                Arguments.of(head + "memoryThrottlingFactor: .inf\n",
                        "line 3, column 25: field \"memoryThrottlingFactor\": Malformed numeric value '.inf'"),
                Arguments.of(head + "memoryThrottlingFactor: .NaN\n",
                        "field \"memoryThrottlingFactor\": Malformed numeric value '.NaN'"),
                // A list inside a list is no string, as Go's decoder says (Jackson 3 alone took its first item).
                Arguments.of(head + "clusterDNS:\n- [10.96.0.10]\n",
                        "line 4, column 3: field \"clusterDNS[0]\": cannot unmarshal array into string"),
                Arguments.of(head + "staticPodURLHeader:\n  a:\n  - [b]\n",
                        "field \"staticPodURLHeader.a[0]\": cannot unmarshal array into string"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("yaml11Refusals")
    void yaml11ValuesOfTheWrongTypeAreRefused(String content, String expected) throws IOException {
        Path file = write("bad.yaml", content);

        assertThatThrownBy(() -> KubeletConfigFile.load(file))
                .isInstanceOf(KubeletConfigLoadException.class)
                .hasMessageContaining(expected);
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nope.yaml");

        assertThatThrownBy(() -> KubeletConfigFile.load(missing))
                .isInstanceOf(KubeletConfigLoadException.class)
                .hasMessage("failed to load kubelet config file, path: " + missing + ", error: open " + missing
                        + ": no such file or directory");
    }

    @Test
    void aDirectoryIsNotAConfigFile() {
        assertThatThrownBy(() -> KubeletConfigFile.load(dir))
                .isInstanceOf(KubeletConfigLoadException.class)
                .hasMessageEndingWith("read " + dir + ": is a directory");
    }

    private Path write(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file;
    }
}
