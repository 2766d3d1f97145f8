package io.jkubelet.server.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

class PodListEncoderTest {

    private final PodListEncoder encoder = new PodListEncoder();

    @Test
    void noPodsIsANullItemsList() {
        assertThat(new String(encoder.encode(List.of()), StandardCharsets.UTF_8))
                .isEqualTo("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":null}\n");
    }

    @Test
    void aReplacedStatusOrARemovedPodShowsInTheNextListAndUnchangedPodsAreNotReencoded() {
        Pod a = new PodBuilder().withNewMetadata().withName("a").withUid("ua").endMetadata()
                .withNewSpec().endSpec().withNewStatus().withPhase("Pending").endStatus().build();
        Pod b = new PodBuilder().withNewMetadata().withName("b").withUid("ub").endMetadata()
                .withNewSpec().endSpec().withNewStatus().withPhase("Pending").endStatus().build();
        byte[] first = encoder.encode(List.of(a, b));
        assertThat(encoder.encode(List.of(a, b))).isSameAs(first);

        // The kubelet replaces a status on change: a new status object, same metadata and spec.
        Pod bRunning = new Pod(null, null, b.getMetadata(), b.getSpec(),
                new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Running").build());
        String second = new String(encoder.encode(List.of(a, bRunning)), StandardCharsets.UTF_8);
        assertThat(second).contains("\"name\":\"a\"").contains("\"phase\":\"Pending\"").contains("\"phase\":\"Running\"");
        assertThat(second).isEqualTo(new String(new PodListEncoder().encode(List.of(a, bRunning)), StandardCharsets.UTF_8));

        String third = new String(encoder.encode(List.of(bRunning)), StandardCharsets.UTF_8);
        assertThat(third).doesNotContain("\"name\":\"a\"").contains("\"name\":\"b\"");
    }

    @Test
    void minimalPodIsWrittenAsGoWritesIt() {
        Pod pod =
                new PodBuilder()
                        .withNewMetadata().withName("web").withNamespace("default").withUid("u1").endMetadata()
                        .withNewSpec().addNewContainer().withName("c").withImage("busybox").endContainer()
                        .withHostNetwork(false).endSpec()
                        .build();

        String json = new String(encoder.encode(List.of(pod)), StandardCharsets.UTF_8);

        // No kind/apiVersion on the item, creationTimestamp null, resources {}, status {}, false omitted.
        assertThat(json)
                .isEqualTo(
                        "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"web\","
                                + "\"namespace\":\"default\",\"uid\":\"u1\",\"creationTimestamp\":null},\"spec\":{\"containers\":"
                                + "[{\"name\":\"c\",\"image\":\"busybox\",\"resources\":{}}]},\"status\":{}}]}\n");
    }

    @Test
    void mapKeysAreSortedAndHtmlCharactersEscapedAsGoDoes() {
        Pod pod =
                new PodBuilder()
                        .withNewMetadata().withName("p")
                        .withAnnotations(Map.of("z", "a<b>&c\u2028", "a", "1", "B", "2"))
                        .endMetadata()
                        .build();

        String json = new String(encoder.encode(List.of(pod)), StandardCharsets.UTF_8);

        assertThat(json)
                .contains("\"annotations\":{\"B\":\"2\",\"a\":\"1\",\"z\":\"a\\u003cb\\u003e\\u0026c\\u2028\"}")
                .contains("\"spec\":{\"containers\":null}");
    }

    @Test
    void aCharacterOutsideTheBasicPlaneIsWrittenAsItsUtf8BytesAsGoDoes() {
        Pod pod = new PodBuilder().withNewMetadata().withName("p")
                .withAnnotations(Map.of("mood", "smile \uD83D\uDE00")).endMetadata().build();

        byte[] json = encoder.encode(List.of(pod));

        // Go's encoding/json writes U+1F600 as F0 9F 98 80; Jackson 2 wrote "\uD83D\uDE00".
        assertThat(new String(json, StandardCharsets.UTF_8)).contains("\"mood\":\"smile \uD83D\uDE00\"")
                .doesNotContain("\\uD83D");
    }

    @Test
    void statusFieldsGoAlwaysWritesAreFilledWithZeroValues() throws IOException {
        Pod pod =
                new PodBuilder()
                        .withNewMetadata().withName("p").endMetadata()
                        .withNewStatus().withPhase("Running")
                        .addNewCondition().withType("Ready").withStatus("True").endCondition()
                        .addNewContainerStatus().withName("c").withNewState().withNewRunning().endRunning().endState()
                        .endContainerStatus()
                        .endStatus()
                        .build();

        JsonNode status = KubeJson.mapper().readTree(encoder.encode(List.of(pod))).get("items").get(0).get("status");

        assertThat(status.toString())
                .isEqualTo(
                        "{\"phase\":\"Running\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"lastProbeTime\":null,"
                                + "\"lastTransitionTime\":null}],\"containerStatuses\":[{\"name\":\"c\",\"state\":{\"running\":"
                                + "{\"startedAt\":null}},\"lastState\":{},\"ready\":false,\"restartCount\":0,\"image\":\"\","
                                + "\"imageID\":\"\"}]}");
    }

    @Test
    void outputParsesBackIntoAFabric8PodList() {
        Pod pod = richPod();

        PodList list = new tools.jackson.databind.json.JsonMapper().readValue(encoder.encode(List.of(pod)), PodList.class);

        assertThat(list.getItems()).hasSize(1);
        Pod back = list.getItems().get(0);
        assertThat(back.getMetadata().getName()).isEqualTo("web-node1");
        assertThat(back.getSpec().getContainers().get(0).getResources().getLimits())
                .containsEntry("memory", new Quantity("64Mi"));
        assertThat(back.getSpec().getContainers().get(0).getLivenessProbe().getHttpGet().getPort())
                .isEqualTo(new IntOrString(8080));
        assertThat(back.getStatus().getContainerStatuses().get(0).getRestartCount()).isEqualTo(2);
    }

    /**
     * The oracle: a real Go client (kubectl) decodes the same pod into the Go v1.Pod and writes it with
     * encoding/json; our bytes must be the same, key for key and in the same order.
     */
    @Test
    void richPodMatchesGoEncodingByteForByte(@TempDir Path dir) throws Exception {
        assumeTrue(kubectlAvailable(), "kubectl is not on the PATH");
        Pod pod = richPod();
        ObjectMapper mapper = KubeJson.mapper();
        Path file = dir.resolve("pod.json");
        Files.write(file, mapper.writeValueAsBytes(pod));
        Process kubectl =
                new ProcessBuilder("kubectl", "set", "serviceaccount", "-f", file.toString(), "--local", "-o", "json", "default")
                        .redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start();
        byte[] goOutput = kubectl.getInputStream().readAllBytes();
        assertThat(kubectl.waitFor()).isZero();
        tools.jackson.databind.node.ObjectNode goPod =
                (tools.jackson.databind.node.ObjectNode) mapper.readTree(goOutput);
        goPod.remove("kind");
        goPod.remove("apiVersion");

        JsonNode ours = mapper.readTree(encoder.encode(List.of(pod))).get("items").get(0);

        // Jackson keeps key order, so comparing compact texts compares order too.
        assertThat(ours.toString()).isEqualTo(goPod.toString());
    }

    static Pod richPod() {
        return new PodBuilder()
                .withNewMetadata()
                .withName("web-node1").withNamespace("default").withUid("0b5c3d3e-9a2c-4d6e-8f00-123456789abc")
                .withLabels(Map.of("app", "web", "tier", "front"))
                .withAnnotations(Map.of("kubernetes.io/config.source", "file", "kubernetes.io/config.hash", "abc"))
                .endMetadata()
                .withNewSpec()
                .withServiceAccountName("default").withServiceAccount("default")
                .withNodeName("node1").withRestartPolicy("Always").withDnsPolicy("ClusterFirst")
                .withTerminationGracePeriodSeconds(30L).withHostNetwork(false).withEnableServiceLinks(true)
                .addNewContainer()
                .withName("app").withImage("busybox:1.36").withCommand("sh", "-c", "sleep 3600")
                .addNewPort().withContainerPort(8080).withProtocol("TCP").endPort()
                .addNewEnv().withName("MODE").withValue("prod").endEnv()
                .addNewEnv().withName("POD_IP").withNewValueFrom().withNewFieldRef().withFieldPath("status.podIP")
                .endFieldRef().endValueFrom().endEnv()
                .withNewResources()
                .withLimits(Map.of("memory", new Quantity("64Mi"), "cpu", new Quantity("500m")))
                .withRequests(Map.of("cpu", new Quantity("100m")))
                .endResources()
                .addNewVolumeMount().withName("data").withMountPath("/data").endVolumeMount()
                .withNewLivenessProbe().withNewHttpGet().withPath("/healthz").withPort(new IntOrString(8080))
                .withScheme("HTTP").endHttpGet().withPeriodSeconds(10).withFailureThreshold(3).endLivenessProbe()
                .withNewReadinessProbe().withNewTcpSocket().withPort(new IntOrString("http")).endTcpSocket()
                .endReadinessProbe()
                .withTerminationMessagePath("/dev/termination-log").withTerminationMessagePolicy("File")
                .withImagePullPolicy("IfNotPresent")
                .endContainer()
                .addNewVolume().withName("data").withNewEmptyDir().endEmptyDir().endVolume()
                .addNewToleration().withOperator("Exists").withEffect("NoExecute").endToleration()
                .withNewSecurityContext().endSecurityContext()
                .endSpec()
                .withNewStatus()
                .withPhase("Running").withHostIP("10.0.0.1").withPodIP("172.17.0.2")
                .addNewPodIP().withIp("172.17.0.2").endPodIP()
                .withStartTime("2024-05-06T07:08:09Z").withQosClass("Burstable")
                .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime("2024-05-06T07:08:10Z")
                .endCondition()
                .addNewContainerStatus()
                .withName("app").withImage("busybox:1.36").withImageID("docker-pullable://busybox@sha256:00")
                .withContainerID("docker://abc").withReady(true).withStarted(true).withRestartCount(2)
                .withNewState().withNewRunning().withStartedAt("2024-05-06T07:08:09Z").endRunning().endState()
                .withNewLastState().withNewTerminated().withExitCode(137).withReason("OOMKilled")
                .withStartedAt("2024-05-06T07:00:00Z").withFinishedAt("2024-05-06T07:08:00Z")
                .withContainerID("docker://old").endTerminated().endLastState()
                .endContainerStatus()
                .endStatus()
                .build();
    }

    private static boolean kubectlAvailable() {
        try {
            Process p = new ProcessBuilder("kubectl", "version", "--client").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
