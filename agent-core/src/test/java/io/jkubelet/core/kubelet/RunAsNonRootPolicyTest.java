package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.config.PodOperation;
import io.jkubelet.core.config.PodUpdate;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code runAsNonRoot} through the whole core against the fake runtime, with images whose configuration names a
 * user: a container that would run as root waits with {@code CreateContainerConfigError} and upstream's message, a
 * {@code Failed} event says why, and nothing is created on the runtime; one that may run gets the image's user.
 */
class RunAsNonRootPolicyTest {
    @TempDir Path root;
    private final FakeClock clock = new FakeClock();
    private FakeRuntime runtime;
    private LoggingEventRecorder events;
    private Kubelet kubelet;

    @BeforeEach
    void setUp() {
        runtime = new FakeRuntime(clock);
        runtime.addImage("jkubelet/pause:3.9");
        for (String user : List.of("root", "1000", "nobody", "none")) {
            runtime.addImage("user-" + user + ":1");
        }
        runtime.setImageUser("user-root:1", "0");
        runtime.setImageUser("user-1000:1", "1000:1000");
        runtime.setImageUser("user-nobody:1", "nobody");
        events = new LoggingEventRecorder(clock);
        kubelet = new Kubelet(TestSettings.under(root), KubeletDeps.builder(runtime, runtime, events, clock).build());
        kubelet.start();
    }

    @AfterEach
    void stop() {
        kubelet.close();
    }

    private static Container nonRoot(String image) {
        return new ContainerBuilder().withName("app").withImage(image).withImagePullPolicy("Never")
                .withCommand("sleep", "3600").withNewSecurityContext().withRunAsNonRoot(true).endSecurityContext()
                .build();
    }

    private ContainerStatus appStatus(String pod) {
        await().atMost(Duration.ofSeconds(10)).until(() -> status(pod).map(p -> p.getStatus() != null
                && p.getStatus().getContainerStatuses() != null && p.getStatus().getContainerStatuses().stream()
                .anyMatch(c -> c.getState().getRunning() != null || (c.getState().getWaiting() != null
                        && "CreateContainerConfigError".equals(c.getState().getWaiting().getReason())))).orElse(false));
        return status(pod).orElseThrow().getStatus().getContainerStatuses().get(0);
    }

    private Optional<Pod> status(String name) {
        return kubelet.views().pods().stream().filter(p -> p.getMetadata().getName().equals(name)).findFirst();
    }

    private void run(Pod pod) {
        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.ADD, "test"));
    }

    private void assertRefused(String pod, String message) {
        ContainerStatus app = appStatus(pod);
        assertThat(app.getState().getWaiting().getReason()).isEqualTo("CreateContainerConfigError");
        assertThat(app.getState().getWaiting().getMessage()).isEqualTo(message);
        await().atMost(Duration.ofSeconds(5)).until(() -> events.events().stream().anyMatch(e ->
                e.type().equals("Warning") && e.reason().equals("Failed") && e.message().equals("Error: " + message)
                        && e.involvedObject().getName().equals(pod)));
        assertThat(runtime.listContainers(ContainerFilter.ALL)).as("nothing created for " + pod)
                .noneMatch(c -> c.labels().get("io.kubernetes.pod.name").equals(pod));
    }

    @Test
    void aRootImageIsRefused() {
        run(pod("root-image", nonRoot("user-root:1")));
        assertRefused("root-image", "container has runAsNonRoot and image will run as root "
                + "(pod: \"root-image_default(uid-root-image)\", container: app)");
    }

    @Test
    void anImageThatNamesNoUserRunsAsRootAndIsRefused() {
        run(pod("no-user", nonRoot("user-none:1")));
        assertRefused("no-user", "container has runAsNonRoot and image will run as root "
                + "(pod: \"no-user_default(uid-no-user)\", container: app)");
    }

    @Test
    void aNamedImageUserCannotBeVerifiedAndIsRefused() {
        run(pod("named", nonRoot("user-nobody:1")));
        assertRefused("named", "container has runAsNonRoot and image has non-numeric user (nobody), cannot verify "
                + "user is non-root (pod: \"named_default(uid-named)\", container: app)");
    }

    @Test
    void anExplicitRootRunAsUserIsRefusedWhateverTheImage() {
        Container c = new ContainerBuilder(nonRoot("user-1000:1")).editSecurityContext().withRunAsUser(0L)
                .endSecurityContext().build();
        run(pod("explicit-root", c));
        assertRefused("explicit-root", "container's runAsUser breaks non-root policy "
                + "(pod: \"explicit-root_default(uid-explicit-root)\", container: app)");
    }

    @Test
    void aNumericNonRootImageUserRunsAsThatUserAndARunAsGroupJoinsIt() {
        Container c = new ContainerBuilder(nonRoot("user-1000:1")).editSecurityContext().withRunAsGroup(3000L)
                .endSecurityContext().build();
        run(pod("numeric", c));
        assertThat(appStatus("numeric").getState().getRunning()).isNotNull();
        String id = runtime.listContainers(ContainerFilter.ALL).get(0).id();
        LinuxContainerSecurityContext sc = runtime.containerConfig(id).securityContext();
        assertThat(sc.runAsUser()).isEqualTo(1000L);
        assertThat(sc.runAsGroup()).isEqualTo(3000L);
    }
}
