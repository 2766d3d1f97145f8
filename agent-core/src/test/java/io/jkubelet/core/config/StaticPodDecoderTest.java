package io.jkubelet.core.config;

import static io.jkubelet.core.config.Manifests.NODE;
import static io.jkubelet.core.config.Manifests.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StaticPodDecoderTest {

    private static final StaticPodDefaults FILE = StaticPodDefaults.forFile(NODE, "/etc/kubernetes/manifests/web.yaml");

    private static Pod decode(String manifest, StaticPodDefaults defaults) {
        DecodeResult<Pod> result = StaticPodDecoder.tryDecodeSinglePod(bytes(manifest), defaults);
        assertThat(result).isInstanceOf(DecodeResult.Decoded.class);
        return ((DecodeResult.Decoded<Pod>) result).value();
    }

    @Test
    void yamlAndJsonGiveTheSamePod() {
        Pod fromYaml = decode(Manifests.WEB_YAML, FILE);
        Pod fromJson = decode(Manifests.WEB_JSON, FILE);

        assertThat(fromJson).isEqualTo(fromYaml);
        assertThat(fromYaml.getSpec().getContainers()).extracting(Container::getName).containsExactly("nginx");
        assertThat(fromYaml.getSpec().getContainers().getFirst().getPorts().getFirst().getContainerPort()).isEqualTo(80);
    }

    @Test
    void staticPodIsNamedForTheNodeAndPlacedOnIt() {
        Pod pod = decode(Manifests.WEB_YAML, FILE);

        assertThat(pod.getMetadata().getName()).isEqualTo("web-node-1");
        assertThat(pod.getMetadata().getNamespace()).isEqualTo("default");
        assertThat(pod.getSpec().getNodeName()).isEqualTo(NODE);
        assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(pod.getMetadata().getUid()).matches("[0-9a-f]{32}");
        assertThat(pod.getMetadata().getAnnotations())
                .containsEntry(ConfigAnnotations.CONFIG_HASH, pod.getMetadata().getUid())
                .doesNotContainKeys(ConfigAnnotations.CONFIG_SOURCE, ConfigAnnotations.CONFIG_FIRST_SEEN);
    }

    @Test
    void givenNamespaceAndUidAreKept() {
        Pod pod = decode("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: kube-system, uid: 1234}
                spec: {containers: [{name: c, image: busybox}]}
                """, FILE);

        assertThat(pod.getMetadata().getNamespace()).isEqualTo("kube-system");
        assertThat(pod.getMetadata().getUid()).isEqualTo("1234");
        assertThat(pod.getMetadata().getAnnotations()).containsEntry(ConfigAnnotations.CONFIG_HASH, "1234");
    }

    @Test
    void filePodsTolerateNoExecuteTaintsAndUrlPodsDoNot() {
        Pod filePod = decode(Manifests.WEB_YAML, FILE);
        Pod urlPod = decode(Manifests.WEB_YAML, StaticPodDefaults.forUrl(NODE, "http://127.0.0.1/pods"));

        assertThat(filePod.getSpec().getTolerations()).singleElement().satisfies(t -> {
            assertThat(t.getOperator()).isEqualTo("Exists");
            assertThat(t.getEffect()).isEqualTo("NoExecute");
            assertThat(t.getKey()).isNull();
        });
        assertThat(urlPod.getSpec().getTolerations()).isEmpty();
    }

    @Test
    void theNoExecuteTolerationIsNotAddedTwice() {
        Pod pod = decode("""
                apiVersion: v1
                kind: Pod
                metadata: {name: web}
                spec:
                  tolerations: [{operator: Exists, effect: NoExecute}, {key: a, operator: Exists}]
                  containers: [{name: c, image: busybox}]
                """, FILE);

        assertThat(pod.getSpec().getTolerations()).extracting(Toleration::getKey).containsExactly(null, "a");
    }

    @Test
    void uidIsStableForTheSameContentAndSource() {
        assertThat(decode(Manifests.WEB_YAML, FILE).getMetadata().getUid())
                .isEqualTo(decode(Manifests.WEB_YAML, FILE).getMetadata().getUid())
                // JSON or YAML, the same pod is the same content.
                .isEqualTo(decode(Manifests.WEB_JSON, FILE).getMetadata().getUid());
    }

    static Stream<Arguments> uidChanges() {
        String other = Manifests.WEB_YAML.replace("nginx:1.25", "nginx:1.26");
        return Stream.of(
                Arguments.of("another node", Manifests.WEB_YAML, StaticPodDefaults.forFile("node-2",
                        "/etc/kubernetes/manifests/web.yaml")),
                Arguments.of("another path", Manifests.WEB_YAML, StaticPodDefaults.forFile(NODE,
                        "/etc/kubernetes/manifests/web2.yaml")),
                Arguments.of("other content", other, FILE),
                Arguments.of("a URL", Manifests.WEB_YAML, StaticPodDefaults.forUrl(NODE,
                        "/etc/kubernetes/manifests/web.yaml")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("uidChanges")
    void uidDiffersFor(String what, String manifest, StaticPodDefaults defaults) {
        assertThat(decode(manifest, defaults).getMetadata().getUid())
                .isNotEqualTo(decode(Manifests.WEB_YAML, FILE).getMetadata().getUid());
    }

    @Test
    void apiDefaultsAreAppliedBeforeHashing() {
        // Spelling out a default must not change the pod's identity: the hash covers the defaulted pod.
        String explicit = Manifests.WEB_YAML.replace("spec:\n", "spec:\n  restartPolicy: Always\n  dnsPolicy: ClusterFirst\n");

        assertThat(decode(explicit, FILE).getMetadata().getUid())
                .isEqualTo(decode(Manifests.WEB_YAML, FILE).getMetadata().getUid());
    }

    @Test
    void yamlIsReadAsTheKubeletReadsIt() {
        Pod pod = decode("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: web
                  labels: &labels {app: web}
                  annotations: {built: 2024-05-01T10:00:00Z}
                spec:
                  nodeSelector: *labels
                  containers:
                  - name: main
                    image: busybox
                    resources: {limits: {cpu: 1, memory: 64Mi}}
                  volumes:
                  - name: cfg
                    configMap: {name: cfg, defaultMode: 0600}
                """, FILE);

        assertThat(pod.getSpec().getVolumes().getFirst().getConfigMap().getDefaultMode()).isEqualTo(0600);
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("built", "2024-05-01T10:00:00Z");
        assertThat(pod.getSpec().getNodeSelector()).containsExactly(java.util.Map.entry("app", "web"));
        assertThat(pod.getSpec().getContainers().getFirst().getResources().getLimits().get("cpu").toString())
                .isEqualTo("1");
    }

    @Test
    void aPodListIsDecodedWithEveryPodDefaulted() {
        String list = """
                {"apiVersion": "v1", "kind": "PodList", "items": [
                  {"metadata": {"name": "a"}, "spec": {"containers": [{"name": "c", "image": "busybox"}]}},
                  {"metadata": {"name": "b"}, "spec": {"containers": [{"name": "c", "image": "busybox"}]}}]}
                """;
        DecodeResult<List<Pod>> result = StaticPodDecoder.tryDecodePodList(bytes(list),
                StaticPodDefaults.forUrl(NODE, "http://127.0.0.1/pods"));

        assertThat(result).isInstanceOf(DecodeResult.Decoded.class);
        if (result instanceof DecodeResult.Decoded<List<Pod>> decoded) {
            assertThat(decoded.value()).extracting(p -> p.getMetadata().getName())
                    .containsExactly("a-node-1", "b-node-1");
        }
        assertThat(StaticPodDecoder.tryDecodeSinglePod(bytes(list), FILE))
                .isInstanceOf(DecodeResult.NotParsed.class);
    }

    @Test
    void oneBadPodMakesTheListInvalid() {
        String list = """
                {"apiVersion": "v1", "kind": "PodList", "items": [
                  {"metadata": {"name": "a"}, "spec": {"containers": [{"name": "c", "image": "busybox"}]}},
                  {"metadata": {"name": "b"}, "spec": {"containers": []}}]}
                """;

        assertThat(StaticPodDecoder.tryDecodePodList(bytes(list), FILE))
                .isEqualTo(new DecodeResult.Invalid<List<Pod>>(List.of("items[1].spec.containers: Required value")));
    }

    static Stream<Arguments> badManifests() {
        return Stream.of(
                Arguments.of("not YAML", "apiVersion: v1\nkind: Pod\nmetadata: [a\n", "NotParsed", "invalid YAML"),
                Arguments.of("not JSON", "{\"kind\": \"Pod\",", "NotParsed", "invalid JSON"),
                Arguments.of("empty", "", "NotParsed", "Object 'Kind' is missing"),
                Arguments.of("no kind", "apiVersion: v1\nmetadata: {name: a}\n", "NotParsed",
                        "Object 'Kind' is missing"),
                Arguments.of("no apiVersion", "kind: Pod\nmetadata: {name: a}\n", "NotParsed",
                        "Object 'apiVersion' is missing"),
                Arguments.of("not a Pod", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n", "NotParsed",
                        "expected kind Pod in apiVersion v1, got kind Deployment in apiVersion apps/v1"),
                Arguments.of("wrong type", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: 3}\n",
                        "NotParsed", "spec.containers"),
                Arguments.of("duplicate key", "apiVersion: v1\nkind: Pod\nkind: Pod\n", "NotParsed", "kind"),
                Arguments.of("no name", "apiVersion: v1\nkind: Pod\nspec: {containers: [{name: c, image: b}]}\n",
                        "Invalid", "metadata.name: Required value: name is needed for the pod"),
                Arguments.of("no containers", Manifests.pod("a", "b").replaceAll("(?s)containers:.*", "containers: []"),
                        "Invalid", "spec.containers: Required value"),
                Arguments.of("invalid name", Manifests.pod("A_b", "busybox"), "Invalid",
                        "metadata.name: Invalid value: \"A_b-node-1\": a lowercase RFC 1123 subdomain"),
                Arguments.of("invalid image", Manifests.pod("a", "Busybox"), "Invalid",
                        "spec.containers[0].image: Invalid value: \"Busybox\": invalid reference format: repository"
                                + " name (library/Busybox) must be lowercase"),
                Arguments.of("resource claims", """
                        apiVersion: v1
                        kind: Pod
                        metadata: {name: a}
                        spec:
                          resourceClaims: [{name: gpu, resourceClaimName: gpu}]
                          containers: [{name: c, image: busybox}]
                        """, "Invalid", "spec.resourceClaims: Forbidden: static pods may not use ResourceClaims"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badManifests")
    void badManifestIsRefusedWithTheReason(String what, String manifest, String outcome, String reason) {
        DecodeResult<Pod> result = StaticPodDecoder.tryDecodeSinglePod(bytes(manifest), FILE);

        assertThat(result.getClass().getSimpleName()).isEqualTo(outcome);
        String described = switch (result) {
            case DecodeResult.NotParsed<Pod> notParsed -> notParsed.reason();
            case DecodeResult.Invalid<Pod> invalid -> String.join("; ", invalid.errors());
            case DecodeResult.Decoded<Pod> decoded -> "decoded";
        };
        assertThat(described).contains(reason);
    }
}
