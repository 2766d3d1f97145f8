package io.jkubelet.cri;

import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.RuntimeService;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The deadline each CRI call reaches the runtime with ({@link CriCalls}), as upstream's remote runtime sets them:
 * {@code runtimeRequestTimeout} on the short calls, twice it on RunPodSandbox, the grace period or the exec's timeout
 * more on StopContainer and ExecSync, none on a pull or an exec without a timeout. The runtime reads what is left of
 * the deadline on arrival; the bounds leave the test's own run time out of it.
 */
class CriDeadlinesTest extends FakeCriTestBase {

    /** The calls whose deadline is not {@code runtimeRequestTimeout}. */
    private static final Set<String> LONGER = Set.of("RunPodSandbox", "StopContainer", "ExecSync", "PullImage");

    @Test
    void everyShortCallReachesTheRuntimeWithinRuntimeRequestTimeout() {
        String id = createdContainer("app", NGINX);
        cri.version();
        cri.startContainer(id);
        cri.containerStatus(id);
        cri.podSandboxStatus("sandbox-1");
        cri.listPodSandbox(PodSandboxFilter.ALL);
        cri.listContainers(ContainerFilter.ALL);
        cri.reopenContainerLog(id);
        cri.streamingRuntime().orElseThrow().getAttach(id, false, true, true, false);
        cri.listImages();
        cri.imageStatus(NGINX);
        cri.removeImage("unknown:1");
        cri.pinnedImages();
        cri.stopPodSandbox("sandbox-1");
        cri.removePodSandbox("sandbox-1");

        List<FakeCriRecorder.Call> shortCalls = fake.recorder.calls().stream()
                .filter(c -> !LONGER.contains(c.method())).toList();
        assertThat(shortCalls).extracting(FakeCriRecorder.Call::method).contains("Version", "CreateContainer",
                "StartContainer", "ContainerStatus", "PodSandboxStatus", "ListPodSandbox", "ListContainers",
                "ReopenContainerLog", "Attach", "ListImages", "ImageStatus", "Status", "StopPodSandbox",
                "RemovePodSandbox");
        assertThat(shortCalls).allSatisfy(c -> {
            assertThat(c.deadline()).as(c.method() + "'s deadline").isNotNull();
            assertThat(c.millisLeft()).as(c.method()).isLessThanOrEqualTo(120_000).isGreaterThan(60_000);
        });
    }

    @Test
    void theDeadlineFollowsTheSetting() {
        try (CriRuntime quick = fake.adapter(Duration.ofSeconds(10))) {
            quick.version();
        }

        assertThat(fake.recorder.last("Version").millisLeft()).isLessThanOrEqualTo(10_000).isGreaterThan(5_000);
    }

    @Test
    void runPodSandboxHasTwiceTheTimeoutForTheNetworkItSetsUp() {
        cri.runPodSandbox(sandboxConfig("pod"));

        assertThat(fake.recorder.last("RunPodSandbox").millisLeft()).isLessThanOrEqualTo(240_000).isGreaterThan(120_000);
    }

    @Test
    void aStopHasItsGracePeriodMoreAndAnExecItsTimeoutMore() {
        String id = createdContainer("app", NGINX);

        cri.stopContainer(id, Duration.ofSeconds(30));
        cri.execSync(id, List.of("true"), Duration.ofSeconds(5));

        assertThat(fake.recorder.last("StopContainer").millisLeft()).isLessThanOrEqualTo(150_000).isGreaterThan(120_000);
        assertThat(fake.recorder.last("ExecSync").millisLeft()).isLessThanOrEqualTo(125_000).isGreaterThan(120_000);
    }

    @Test
    void aPullAndAnExecWithoutATimeoutHaveNoDeadline() {
        String id = createdContainer("app", NGINX);

        cri.pullImage(NGINX, null);
        cri.execSync(id, List.of("/hooks/post-start"), RuntimeService.NO_TIMEOUT);

        assertThat(fake.recorder.last("PullImage").deadline()).as("the runtime paces a pull").isNull();
        assertThat(fake.recorder.last("ExecSync").deadline()).as("a lifecycle hook's exec").isNull();
    }
}
