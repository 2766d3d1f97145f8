package io.jkubelet.cmd.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.cri.CriRuntime;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The built jar on containerd (the system containerd that {@code jk_ensure_containerd} starts, its CRI plugin): the
 * endpoint chooses the CRI adapter, a static pod runs with its pod IP from CNI, its logs are containerd's CRI files
 * read through {@code /containerLogs}, and the runtime holds its sandbox and container with upstream's labels.
 */
class ContainerdIT extends ContainerdTestBase {

    @Test
    void aStaticPodRunsOnContainerdWithItsPodIpAndItsLogs() throws Exception {
        Path config = Files.writeString(dir.resolve("kubelet.yaml"), """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                authentication: {anonymous: {enabled: true}, webhook: {enabled: false}}
                authorization: {mode: AlwaysAllow}
                containerRuntimeEndpoint: %s
                """.formatted(ENDPOINT));
        agent = new Agent(dir, "e2e-ctrd-" + UUID.randomUUID().toString().substring(0, 8),
                List.of("--config", config.toString())).start();
        agent.writeManifest("talker.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: talker}
                spec:
                  containers:
                  - name: talk
                    image: jkubelet/busybox:1.0
                    command: ["sh", "-c", "echo hello from containerd; echo to stderr >&2; trap 'exit 0' TERM; sleep 3600 & wait"]
                """);

        Pod pod = awaitPod("talker", Duration.ofSeconds(90), ContainerdTestBase::running);

        // The pod's address comes from the CNI bridge (jk_ensure_containerd's conflist, 10.88.0.0/16).
        assertThat(pod.getStatus().getPodIP()).startsWith("10.88.");
        ContainerStatus talk = pod.getStatus().getContainerStatuses().getFirst();
        assertThat(talk.getContainerID()).startsWith("containerd://");
        assertThat(talk.getImage()).isEqualTo("docker.io/jkubelet/busybox:1.0");
        String name = pod.getMetadata().getName();

        // containerd wrote the CRI log where the kubelet asked; /containerLogs parses it.
        Path log = agent.podLogs.resolve("default_" + name + "_" + pod.getMetadata().getUid()).resolve("talk/0.log");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(log) && Files.readString(log).lines().count() == 2);
        // One line per write, each stream's own; the two pipes are read apart, so either line may come first.
        assertThat(Files.readString(log).lines().toList()).hasSize(2)
                .anyMatch(l -> l.matches("\\S+Z stdout F hello from containerd"))
                .anyMatch(l -> l.matches("\\S+Z stderr F to stderr"));
        SecurePortCurl curl = new SecurePortCurl(agent);
        SecurePortCurl.Answer logs = curl.get("/containerLogs/default/" + name + "/talk");
        assertThat(logs.status()).isEqualTo(200);
        assertThat(logs.body().lines().toList()).containsExactlyInAnyOrder("hello from containerd", "to stderr");
        String lastLine = Files.readString(log).lines().toList().getLast();
        assertThat(curl.get("/containerLogs/default/" + name + "/talk?tailLines=1&timestamps=true").body())
                .matches("\\d{4}-\\d\\d-\\d\\dT\\S+Z " + lastLine.substring(lastLine.indexOf(" F ") + 3) + "\n");

        // What the kubelet made, as the runtime lists it (crictl pods / crictl ps): upstream's labels.
        try (CriRuntime runtime = cri()) {
            List<PodSandbox> sandboxes = runtime.listPodSandbox(
                    new PodSandboxFilter(null, null, Map.of(Labels.NODE_NAME, agent.nodeName)));
            assertThat(sandboxes).singleElement().satisfies(s -> assertThat(s.labels())
                    .containsEntry("io.kubernetes.pod.name", name)
                    .containsEntry("io.kubernetes.pod.namespace", "default")
                    .containsEntry("io.kubernetes.pod.uid", pod.getMetadata().getUid()));
            List<Container> containers = runtime.listContainers(
                    new ContainerFilter(null, null, sandboxes.getFirst().id(), null));
            assertThat(containers).singleElement().satisfies(c -> {
                assertThat(c.id()).isEqualTo(talk.getContainerID().substring("containerd://".length()));
                assertThat(c.labels()).containsEntry("io.kubernetes.container.name", "talk")
                        .containsEntry("io.kubernetes.pod.name", name);
                assertThat(c.annotations()).containsKeys("io.kubernetes.container.hash",
                        "io.kubernetes.container.restartCount");
            });
        }

        // containerd's own cgroup, the process the CRI adapter names by what Version answers (found by name, no pid
        // file), as upstream's "runtime" system container.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(new ObjectMapper()
                .readTree(agent.get(agent.readOnlyPort, "/stats/summary").orElseThrow())
                .at("/node/systemContainers").findValuesAsText("name")).contains("kubelet", "runtime"));
    }

    @Test
    void aCriEndpointWhereNothingAnswersEndsTheAgentNamingIt() throws Exception {
        String endpoint = "unix://" + dir.resolve("no-runtime.sock");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", Agent.jar(), "--container-runtime-endpoint", endpoint, "--root-dir", dir.resolve("root").toString(),
                "--cert-dir", dir.resolve("pki").toString(), "--read-only-port", "0", "--healthz-port", "0",
                "--port", Integer.toString(Agent.freePort()), "--cgroups-per-qos=false", "--enforce-node-allocatable="));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(p.exitValue()).isEqualTo(1);
        assertThat(out).contains("validate service connection: the CRI runtime at " + endpoint + " does not answer");
    }
}
