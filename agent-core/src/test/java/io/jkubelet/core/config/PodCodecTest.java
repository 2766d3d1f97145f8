package io.jkubelet.core.config;

import static io.jkubelet.core.config.Manifests.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What the lead asked to be checked: fabric8 8 model classes and the Jackson that binds them. */
class PodCodecTest {

    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: web}
            spec:
              containers:
              - name: c
                image: busybox
                resources: {limits: {cpu: 1, memory: 128Mi}, requests: {cpu: 100m}}
                livenessProbe: {httpGet: {port: 8080}}
                readinessProbe: {httpGet: {port: http}}
            """;

    @Test
    void quantitiesAndIntOrStringsBindAndSerialiseAsTheApiserverWritesThem() {
        Pod pod = PodCodec.treeToValue(PodCodec.readTree(bytes(POD)), Pod.class);

        String json = PodCodec.toJson(pod);

        assertThat(json).contains("\"limits\":{\"cpu\":\"1\",\"memory\":\"128Mi\"}")
                .contains("\"requests\":{\"cpu\":\"100m\"}")
                .contains("\"livenessProbe\":{\"httpGet\":{\"port\":8080}}")
                .contains("\"readinessProbe\":{\"httpGet\":{\"port\":\"http\"}}");
        assertThat(pod.getSpec().getContainers().getFirst().getLivenessProbe().getHttpGet().getPort().getIntVal())
                .isEqualTo(8080);
    }

    @Test
    void jackson2CannotBindFabric8Quantities() {
        // Why the codec uses Jackson 3: fabric8 8 puts its Quantity deserializer on a Jackson 3 annotation.
        com.fasterxml.jackson.databind.ObjectMapper jackson2 = new com.fasterxml.jackson.databind.ObjectMapper();
        String json = "{\"spec\":{\"containers\":[{\"resources\":{\"limits\":{\"cpu\":1}}}]}}";

        assertThatThrownBy(() -> jackson2.readValue(json, Pod.class))
                .hasMessageContaining("Quantity");
    }

    @Test
    void deepCopySharesNothing() {
        Pod pod = PodCodec.treeToValue(PodCodec.readTree(bytes(POD)), Pod.class);
        Pod copy = PodCodec.deepCopy(pod);

        copy.getSpec().getContainers().getFirst().setImage("other");
        copy.getMetadata().setName("other");

        assertThat(pod.getSpec().getContainers().getFirst().getImage()).isEqualTo("busybox");
        assertThat(pod.getMetadata().getName()).isEqualTo("web");
    }

    @Test
    void canonicalBytesDoNotDependOnTheOrderOfTheManifest() {
        Pod a = PodCodec.treeToValue(PodCodec.readTree(bytes("""
                {"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "x", "labels": {"a": "1", "b": "2"}}}
                """)), Pod.class);
        Pod b = PodCodec.treeToValue(PodCodec.readTree(bytes("""
                metadata: {labels: {b: "2", a: "1"}, name: x}
                apiVersion: v1
                kind: Pod
                """)), Pod.class);

        assertThat(PodCodec.canonicalBytes(a)).isEqualTo(PodCodec.canonicalBytes(b));
    }

    @Test
    void yamlFollowsYaml11AsTheKubeletDoes() {
        JsonNode tree = PodCodec.readTree(bytes("mode: 0644\nflag: yes\nwhen: 2024-01-01\n1: one\n"));

        assertThat(tree.get("mode").asInt()).isEqualTo(420);
        assertThat(tree.get("flag").asBoolean()).isTrue();
        assertThat(tree.get("when").asString()).isEqualTo("2024-01-01");
        assertThat(tree.get("1").asString()).isEqualTo("one");
    }

    @Test
    void onlyTheFirstYamlDocumentCounts() {
        JsonNode tree = PodCodec.readTree(bytes("a: 1\n---\nb: [unclosed\n"));

        assertThat(tree.propertyNames()).containsExactly("a");
    }

    @Test
    void duplicateKeysAreRefusedInJsonToo() {
        assertThatThrownBy(() -> PodCodec.readTree(bytes("{\"a\": 1, \"a\": 2}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Duplicate");
    }
}
