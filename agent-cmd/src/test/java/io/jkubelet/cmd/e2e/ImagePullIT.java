package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Image pull policies against a real registry on 127.0.0.1:5000 (Debian's docker-registry, started by
 * bin/test through {@code jk_ensure_registry}).
 */
class ImagePullIT extends AgentTestBase {
    static final String REGISTRY = "127.0.0.1:5000";

    @BeforeAll
    static void registryRuns() {
        Docker.Result r = Docker.run("manifest", "inspect", "--insecure", REGISTRY + "/jkubelet/busybox:1.0");
        if (r.exitCode() != 0) {
            // `docker manifest` may be unavailable; ask the registry's API directly instead.
            try (var s = new java.net.Socket("127.0.0.1", 5000)) {
                assertThat(s.isConnected()).isTrue();
            } catch (java.io.IOException e) {
                throw new IllegalStateException("the test registry on " + REGISTRY
                        + " does not answer: run bin/test, which starts it (jk_ensure_registry)", e);
            }
        }
    }

    @Test
    void pullsWithPolicyAlwaysAndReportsMissingImages() throws Exception {
        startAgent();
        // A tag only this run uses, so that the pull really goes to the registry.
        String tag = REGISTRY + "/jkubelet/busybox:1.0";
        Docker.run("rmi", tag);
        agent.writeManifest("pull.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: pull}
                spec:
                  containers:
                  - {name: a, image: %s, imagePullPolicy: Always, command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]}
                """.formatted(tag));
        Pod pod = awaitPod("pull", Duration.ofSeconds(90), AgentTestBase::running);
        assertThat(container(pod, "a").orElseThrow().getImageID()).contains("sha256:");
        assertThat(agent.logText()).contains("Pulling image \"" + tag + "\"").contains("Successfully pulled image \"" + tag + "\"");

        String missing = REGISTRY + "/jkubelet/missing-" + UUID.randomUUID().toString().substring(0, 6) + ":1";
        agent.writeManifest("missing.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: missing}
                spec:
                  containers:
                  - {name: m, image: %s, command: ["true"]}
                """.formatted(missing));
        // As with the kubelet, ErrImagePull shows until the next sync, then ImagePullBackOff while the pull backs off.
        Pod failed = awaitPod("missing", Duration.ofSeconds(60), p -> container(p, "m").map(c ->
                c.getState().getWaiting() != null && "ImagePullBackOff".equals(c.getState().getWaiting().getReason())).orElse(false));
        assertThat(container(failed, "m").orElseThrow().getState().getWaiting().getMessage())
                .isEqualTo("Back-off pulling image \"" + missing + "\"");
        assertThat(failed.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(agent.logText()).contains("Failed to pull image \"" + missing + "\"").contains("Error: ErrImagePull");

        agent.writeManifest("never.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: never}
                spec:
                  containers:
                  - {name: n, image: %s, imagePullPolicy: Never, command: ["true"]}
                """.formatted(missing));
        Pod never = awaitPod("never", Duration.ofSeconds(60), p -> container(p, "n").map(c ->
                c.getState().getWaiting() != null && "ErrImageNeverPull".equals(c.getState().getWaiting().getReason())).orElse(false));
        assertThat(container(never, "n").orElseThrow().getState().getWaiting().getMessage())
                .isEqualTo("Container image \"" + missing + "\" is not present with pull policy of Never");
    }
}
