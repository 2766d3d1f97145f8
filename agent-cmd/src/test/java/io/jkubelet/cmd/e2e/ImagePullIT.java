package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Image pull policies against a real registry on 127.0.0.1:5000, and the node's own credentials against the same
 * registry behind htpasswd authentication on 127.0.0.1:5001 (Debian's docker-registry, started by bin/test through
 * {@code jk_ensure_registry}, which also writes the htpasswd user).
 */
class ImagePullIT extends AgentTestBase {
    static final String REGISTRY = "127.0.0.1:5000";
    static final String AUTH_REGISTRY = "127.0.0.1:5001";
    /** jk_ensure_registry's htpasswd user (JK_REGISTRY_USER, JK_REGISTRY_PASSWORD). */
    static final String USER = "jkubelet";
    static final String PASSWORD = "jkubelet-registry-secret";

    @BeforeAll
    static void registriesRun() {
        for (String registry : List.of(REGISTRY, AUTH_REGISTRY)) {
            try (var s = new java.net.Socket("127.0.0.1", Integer.parseInt(registry.substring(registry.indexOf(':') + 1)))) {
                assertThat(s.isConnected()).isTrue();
            } catch (java.io.IOException e) {
                throw new IllegalStateException("the test registry on " + registry
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

    @Test
    void theNodesConfigJsonInTheRootDirAuthenticatesPullsThatFailWithoutIt() throws Exception {
        String image = AUTH_REGISTRY + "/jkubelet/busybox:1.0";
        Docker.run("rmi", image); // only this reference: the image stays under its other names
        try {
            startAgent();
            agent.writeManifest("private.yaml", E2ePods.privateImage(image));
            awaitPod("private", Duration.ofSeconds(60), p -> E2ePods.pullFailed(p, "p"));
            assertThat(agent.logText()).contains("Failed to pull image \"" + image + "\"").contains("no basic auth credentials");

            // The kubelet's root directory is the first place upstream looks for the node's credentials.
            agent.stop();
            String auth = Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
            Files.writeString(Files.createDirectories(dir.resolve("root")).resolve("config.json"),
                    "{\"auths\": {\"" + AUTH_REGISTRY + "\": {\"auth\": \"" + auth + "\"}}}");
            agent.start();

            Pod pod = awaitPod("private", Duration.ofSeconds(90), AgentTestBase::running);
            assertThat(container(pod, "p").orElseThrow().getImageID()).contains("sha256:");
            assertThat(agent.logText()).contains("Successfully pulled image \"" + image + "\"");
        } finally {
            agent.stop();
            Docker.removeAll(agent.nodeName);
            Docker.run("rmi", image);
        }
    }
}
