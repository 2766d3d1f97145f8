package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code runAsNonRoot} through the real apiserver and the real kubectl, each case ending as upstream's kubelet ends
 * it ({@code verifyRunAsNonRoot}): a root image, an image that names a user, and an explicit {@code runAsUser: 0} wait
 * in {@code CreateContainerConfigError} with upstream's message and a {@code Failed} event, and are never created; an
 * image of a numeric non-root user runs as it, and a {@code runAsGroup} joins it. Run on each runtime by a subclass,
 * which puts the {@link UserImages} on it.
 */
abstract class RunAsNonRootCases extends RealClusterBase {
    /** A prefix for this class's pod names: the test classes of a run share one control plane. */
    abstract String prefix();

    private void createNonRootPod(String name, String image, String securityContext) {
        createPod(name, """
                  nodeName: %s
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sleep", "3600"]
                    securityContext: %s
                """.formatted(agent.nodeName, image, securityContext));
    }

    /** Waits for the container's waiting reason, as {@code kubectl get pod} shows it. */
    private ContainerStateWaiting awaitConfigError(String name) {
        await("pod " + name + " in CreateContainerConfigError").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500)).until(() -> kubectl.run("get", "pod", name, "--no-headers").out()
                        .contains("CreateContainerConfigError"));
        Pod pod = pod(name);
        return pod.getStatus().getContainerStatuses().get(0).getState().getWaiting();
    }

    private void assertRefused(String name, String message) {
        ContainerStateWaiting waiting = awaitConfigError(name);
        assertThat(waiting.getReason()).isEqualTo("CreateContainerConfigError");
        assertThat(waiting.getMessage()).isEqualTo(message);
        await("the Failed event of " + name).atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(kubectl.run("get", "events", "--field-selector", "involvedObject.name=" + name,
                        "-o", "jsonpath={range .items[*]}{.type} {.reason} {.message}{\"\\n\"}{end}").ok().out())
                        .contains("Warning Failed Error: " + message));
        assertThat(pod(name).getStatus().getContainerStatuses().get(0).getContainerID())
                .as("the container was never created").isNull();
    }

    private String where(String name) {
        return "(pod: \"" + name + "_default(" + pod(name).getMetadata().getUid() + ")\", container: app)";
    }

    @Test
    void aRootImageIsRefused() {
        String name = prefix() + "root-image";
        createNonRootPod(name, IMAGE, "{runAsNonRoot: true}");
        assertRefused(name, "container has runAsNonRoot and image will run as root " + where(name));
    }

    @Test
    void anImageOfANamedUserCannotBeVerifiedAndIsRefused() {
        String name = prefix() + "named-user";
        createNonRootPod(name, UserImages.NAMED, "{runAsNonRoot: true}");
        assertRefused(name, "container has runAsNonRoot and image has non-numeric user (nobody), cannot verify user "
                + "is non-root " + where(name));
    }

    @Test
    void anExplicitRootRunAsUserIsRefusedWhateverTheImage() {
        String name = prefix() + "explicit-root";
        createNonRootPod(name, UserImages.NUMERIC, "{runAsNonRoot: true, runAsUser: 0}");
        assertRefused(name, "container's runAsUser breaks non-root policy " + where(name));
    }

    @Test
    void anImageOfANumericNonRootUserRunsAsItAndARunAsGroupJoinsIt() {
        String name = prefix() + "numeric-user";
        createNonRootPod(name, UserImages.NUMERIC, "{runAsNonRoot: true, runAsGroup: 3000}");
        awaitRunning(name);
        assertThat(exec(name, "id -u; id -g").lines()).containsExactly("1000", "3000");
    }
}
