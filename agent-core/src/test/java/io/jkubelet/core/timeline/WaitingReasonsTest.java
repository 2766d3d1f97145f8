package io.jkubelet.core.timeline;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class WaitingReasonsTest {
    private static final Instant EXITED = Instant.parse("2026-12-04T12:03:10Z");

    private static io.fabric8.kubernetes.api.model.PodStatus crashLooping(String backOff) {
        return new PodStatusBuilder().addToContainerStatuses(new ContainerStatusBuilder().withName("app").withRestartCount(3)
                .withNewState().withNewWaiting().withReason("CrashLoopBackOff")
                .withMessage("back-off " + backOff + " restarting failed container=app pod=crash_default(u1)").endWaiting().endState()
                .withNewLastState().withNewTerminated().withExitCode(1).withReason("Error").withFinishedAt(EXITED.toString())
                .endTerminated().endLastState().build()).build();
    }

    @Test
    void aCrashLoopSaysHowLongItStillWaitsAndTheLastExit() {
        var waiting = WaitingReasons.of(crashLooping("1m20s"), EXITED.plusSeconds(40));

        assertThat(waiting).containsExactly(new WaitingReasons.Waiting("app", "CrashLoopBackOff",
                "waiting 40 s more for CrashLoopBackOff; last exit code 1 at 12:03:10"));
    }

    @Test
    void aBackOffThatIsOverSaysSo() {
        assertThat(WaitingReasons.of(crashLooping("40s"), EXITED.plusSeconds(41)).get(0).text())
                .isEqualTo("back-off of 40s is over, restarting at the next sync; last exit code 1 at 12:03:10");
    }

    @Test
    void otherReasonsGiveTheirMessageAndAnOomKillIsNamed() {
        var status = new PodStatusBuilder().addToContainerStatuses(new ContainerStatusBuilder().withName("app")
                .withNewState().withNewWaiting().withReason("ImagePullBackOff").withMessage("Back-off pulling image \"x\"")
                .endWaiting().endState()
                .withNewLastState().withNewTerminated().withExitCode(137).withReason("OOMKilled")
                .withFinishedAt(EXITED.toString()).endTerminated().endLastState().build()).build();

        assertThat(WaitingReasons.of(status, EXITED).get(0).text()).isEqualTo(
                "waiting for ImagePullBackOff: Back-off pulling image \"x\"; last exit code 137 (OOMKilled) at 12:03:10");
    }

    @Test
    void runningContainersAndNoStatusWaitForNothing() {
        assertThat(WaitingReasons.of(null, EXITED)).isEmpty();
        assertThat(WaitingReasons.of(new PodStatusBuilder().addToContainerStatuses(new ContainerStatusBuilder().withName("a")
                .withNewState().withNewRunning().endRunning().endState().build()).build(), EXITED)).isEmpty();
    }
}
