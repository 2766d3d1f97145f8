package io.jkubelet.core.apis.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The merge rules of upstream's drop-in directory, with the examples of its documentation. */
class KubeletConfigDropInsTest {

    private static final String HEADER = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n";

    @TempDir Path dir;

    private KubeletConfiguration base(String yaml) throws Exception {
        Path file = dir.resolve("kubelet.yaml");
        Files.writeString(file, HEADER + yaml);
        return KubeletConfigFile.load(file);
    }

    private Path dropIns() throws IOException {
        return Files.createDirectories(dir.resolve("kubelet.conf.d"));
    }

    private void dropIn(String name, String yaml) throws IOException {
        Path file = dropIns().resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, HEADER + yaml);
    }

    @Test
    void scalarsAreReplacedAndAStructsFieldsAreMergedOneByOne() throws Exception {
        KubeletConfiguration base = base("""
                port: 20250
                authorization:
                  mode: Webhook
                  webhook:
                    cacheAuthorizedTTL: "5m"
                    cacheUnauthorizedTTL: "30s"
                serializeImagePulls: false
                address: "192.168.0.1"
                """);
        dropIn("10-authz.conf", """
                authorization:
                  mode: AlwaysAllow
                  webhook:
                    cacheAuthorizedTTL: "8m"
                address: "192.168.0.8"
                """);

        KubeletConfiguration merged = KubeletConfigDropIns.merge(base, dropIns());

        assertThat(merged.port()).isEqualTo(20250);
        assertThat(merged.serializeImagePulls()).isFalse();
        assertThat(merged.address()).isEqualTo("192.168.0.8");
        assertThat(merged.authorization().mode()).isEqualTo("AlwaysAllow");
        assertThat(merged.authorization().webhook().cacheAuthorizedTTL()).isEqualTo(Duration.ofMinutes(8));
        assertThat(merged.authorization().webhook().cacheUnauthorizedTTL()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aListIsReplacedWhole() throws Exception {
        KubeletConfiguration base = base("clusterDNS: [\"192.168.0.9\", \"192.168.0.8\"]\n");
        dropIn("dns.conf", "clusterDNS: [\"192.168.0.2\", \"192.168.0.3\", \"192.168.0.5\"]\n");

        assertThat(KubeletConfigDropIns.merge(base, dropIns()).clusterDNS())
                .containsExactly("192.168.0.2", "192.168.0.3", "192.168.0.5");
    }

    @Test
    void aMapIsMergedPerKeyAndTheListUnderAKeyIsReplaced() throws Exception {
        KubeletConfiguration base = base("""
                featureGates:
                  AllAlpha: false
                  MemoryQoS: true
                staticPodURLHeader:
                  kubelet-api-support: ["Authorization: 234APSDFA", "X-Custom-Header: 123"]
                  custom-static-pod: ["Authorization: 223EWRWER", "X-Custom-Header: 456"]
                """);
        dropIn("gates.conf", """
                featureGates:
                  MemoryQoS: false
                  KubeletTracing: true
                staticPodURLHeader:
                  custom-static-pod: ["Authorization: 223EWRWER", "X-Custom-Header: 345"]
                """);

        KubeletConfiguration merged = KubeletConfigDropIns.merge(base, dropIns());

        assertThat(merged.featureGates()).containsExactlyInAnyOrderEntriesOf(
                Map.of("AllAlpha", false, "MemoryQoS", false, "KubeletTracing", true));
        assertThat(merged.staticPodURLHeader()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "kubelet-api-support", List.of("Authorization: 234APSDFA", "X-Custom-Header: 123"),
                "custom-static-pod", List.of("Authorization: 223EWRWER", "X-Custom-Header: 345")));
    }

    @Test
    void dropInsApplyInLexicalOrderSubDirectoriesWhereTheirNameSortsOnlyConfFiles() throws Exception {
        KubeletConfiguration base = base("maxPods: 10\n");
        dropIn("20-last.conf", "maxPods: 20\nclusterDomain: twenty.local\n");
        dropIn("10-first.conf", "maxPods: 11\nclusterDomain: ten.local\nhealthzPort: 1111\n");
        dropIn("15-dir/a.conf", "maxPods: 15\nhealthzPort: 1515\nrotateCertificates: true\n");
        dropIn("30-ignored.yaml", "maxPods: 30\n");
        dropIn("30-ignored.conf.bak", "maxPods: 31\n");

        KubeletConfiguration merged = KubeletConfigDropIns.merge(base, dropIns());

        assertThat(KubeletConfigDropIns.dropInFiles(dropIns())).extracting(p -> dropIns().relativize(p).toString())
                .containsExactly("10-first.conf", "15-dir/a.conf", "20-last.conf");
        assertThat(merged.maxPods()).isEqualTo(20);
        assertThat(merged.clusterDomain()).isEqualTo("twenty.local");
        assertThat(merged.healthzPort()).isEqualTo(1515);
        assertThat(merged.rotateCertificates()).isTrue();
    }

    @Test
    void aNullChangesNothingAndAnEmptyMapOfTheBaseSurvivesTheMerge() throws Exception {
        KubeletConfiguration base = base("evictionHard: {}\nenforceNodeAllocatable: []\nclusterDomain: base.local\n");
        dropIn("nulls.conf", "clusterDomain: null\nmaxPods: 12\n");

        KubeletConfiguration merged = KubeletConfigDropIns.merge(base, dropIns());

        assertThat(merged.clusterDomain()).isEqualTo("base.local");
        assertThat(merged.evictionHard()).isEmpty();
        assertThat(merged.enforceNodeAllocatable()).isEmpty();
        assertThat(merged.maxPods()).isEqualTo(12);
    }

    @Test
    void anEmptyDirectoryLeavesTheConfigurationAsItWas() throws Exception {
        KubeletConfiguration base = KubeletConfiguration.builder().from(base("""
                evictionHard: {memory.available: 1Gi}
                tlsCipherSuites: [TLS_AES_128_GCM_SHA256]
                registerWithTaints: [{key: a, value: b, effect: NoSchedule}]
                """)).build();

        // Every set field, empty and zero values included, compared.
        assertThat(KubeletConfigTree.of(KubeletConfigDropIns.merge(base, dropIns()))).isEqualTo(KubeletConfigTree.of(base));
    }

    @Test
    void aConfigurationWithEveryFieldSetComesThroughAMergeUnchanged() throws Exception {
        KubeletConfiguration every = KubeletConfigFile.load(Path.of(getClass().getResource("every-field.json").toURI()));
        dropIn("nothing-set.conf", "");

        KubeletConfiguration merged = KubeletConfigDropIns.merge(every, dropIns());

        assertThat(KubeletConfigCodec.toJson(merged)).isEqualTo(KubeletConfigCodec.toJson(every));
        assertThat(KubeletConfigTree.of(merged)).isEqualTo(KubeletConfigTree.of(every));
    }

    @Test
    void aBadDropInIsNamedWithWhatIsWrong() throws Exception {
        KubeletConfiguration base = base("maxPods: 10\n");
        dropIn("10-good.conf", "maxPods: 11\n");
        dropIn("20-bad.conf", "podManifestDir: /etc/kubernetes/manifests\n");

        assertThatThrownBy(() -> KubeletConfigDropIns.merge(base, dropIns()))
                .isInstanceOf(KubeletConfigLoadException.class)
                .hasMessage("failed to merge kubelet configs: failed to walk through kubelet dropin directory \""
                        + dropIns() + "\": failed to load kubelet dropin file, path: " + dropIns().resolve("20-bad.conf")
                        + ", error: line 3, column 17: unknown field \"podManifestDir\"");
    }

    @Test
    void aDropInOfTheWrongKindOrTypeIsRefused() throws Exception {
        KubeletConfiguration base = base("maxPods: 10\n");
        Files.writeString(dropIns().resolve("kind.conf"), "apiVersion: v1\nkind: ConfigMap\n");
        assertThatThrownBy(() -> KubeletConfigDropIns.merge(base, dropIns()))
                .hasMessageContaining("kind.conf").hasMessageContaining("apiVersion \"v1\" is not supported");

        Files.delete(dropIns().resolve("kind.conf"));
        dropIn("type.conf", "maxPods: many\n");
        assertThatThrownBy(() -> KubeletConfigDropIns.merge(base, dropIns()))
                .hasMessageContaining("type.conf").hasMessageContaining("maxPods");

        Files.writeString(dropIns().resolve("type.conf"), "");
        assertThatThrownBy(() -> KubeletConfigDropIns.merge(base, dropIns()))
                .hasMessageContaining("type.conf").hasMessageContaining("the file is empty");
    }

    @Test
    void aMissingDirectoryIsNamed() throws Exception {
        KubeletConfiguration base = base("maxPods: 10\n");
        Path missing = dir.resolve("none");
        assertThatThrownBy(() -> KubeletConfigDropIns.merge(base, missing))
                .hasMessage("failed to merge kubelet configs: failed to walk through kubelet dropin directory \""
                        + missing + "\": lstat " + missing + ": no such file or directory");
    }
}
