package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.cri.CriRuntime;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Images and dead containers on containerd through the built jar: a pull from the local registry behind htpasswd
 * authentication with the node's credentials (the CRI's AuthConfig), and container GC removing the dead instances of
 * a crashing container beyond what the policy keeps.
 */
class ContainerdImagesIT extends ContainerdTestBase {

    @Test
    void theNodesConfigJsonAuthenticatesAPullThatFailsWithoutIt() throws Exception {
        ImagePullIT.registriesRun();
        String image = ImagePullIT.AUTH_REGISTRY + "/jkubelet/busybox:1.0";
        ctr("images", "rm", image); // only this name: containerd keeps the image under its other names
        try {
            startAgent();
            agent.writeManifest("private.yaml", E2ePods.privateImage(image));
            awaitPod("private", Duration.ofSeconds(60), p -> E2ePods.pullFailed(p, "p"));
            assertThat(agent.logText()).contains("Failed to pull image \"" + image + "\"");

            // The kubelet's root directory is the first place upstream looks for the node's credentials.
            agent.stop();
            String auth = Base64.getEncoder().encodeToString((ImagePullIT.USER + ":" + ImagePullIT.PASSWORD)
                    .getBytes(StandardCharsets.UTF_8));
            Files.writeString(Files.createDirectories(dir.resolve("root")).resolve("config.json"),
                    "{\"auths\": {\"" + ImagePullIT.AUTH_REGISTRY + "\": {\"auth\": \"" + auth + "\"}}}");
            agent.start();

            Pod pod = awaitPod("private", Duration.ofSeconds(90), ContainerdTestBase::running);
            assertThat(container(pod, "p").orElseThrow().getImage()).isEqualTo(image);
            assertThat(container(pod, "p").orElseThrow().getImageID()).contains("sha256:");
            assertThat(agent.logText()).contains("Successfully pulled image \"" + image + "\"");
            assertThat(ctr("images", "ls", "-q", "name==" + image)).contains(image);
        } finally {
            // Only the name this test pulled (the container keeps the image by its id); the pods go in tearDown.
            ctr("images", "rm", image);
        }
    }

    @Test
    void containerGcRemovesTheDeadInstancesOfACrashingContainerButTheNewest() throws Exception {
        // Upstream's defaults: one dead instance kept per container, no age required; GC runs a minute after start.
        startAgent();
        agent.writeManifest("crash.yaml", E2ePods.crash("c", "exit 3"));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> exited(agent.nodeName).size() >= 2);
        // The restarts go on (crash loop back-off); the first GC pass leaves only the newest dead instance.
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .until(() -> exited(agent.nodeName).size() == 1);
        Pod pod = awaitPod("crash", Duration.ofSeconds(10), p -> true);
        assertThat(container(pod, "c").orElseThrow().getRestartCount()).isGreaterThanOrEqualTo(2);
        // The kubelet still reports the last instance's end, which the runtime kept.
        assertThat(container(pod, "c").orElseThrow().getLastState().getTerminated().getExitCode()).isEqualTo(3);
    }

    /** The node's exited containers, as {@code crictl ps -a --state exited} lists them. */
    private static List<String> exited(String nodeName) {
        try (CriRuntime runtime = cri()) {
            return runtime.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_EXITED, null,
                    Map.of(Labels.NODE_NAME, nodeName))).stream().map(c -> c.id()).toList();
        }
    }
}
