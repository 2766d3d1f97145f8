package io.jkubelet.core.probe;

import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.runtime.testing.FakeRuntime.Script;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExecProberTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    private final FakeRuntime runtime = new FakeRuntime(new FakeClock());
    private final ExecProber prober = new ExecProber(runtime);
    private String containerId;

    @BeforeEach
    void runAContainer() {
        containerId = RunningContainers.start(runtime);
    }

    @Test
    void exitZeroIsSuccessWithTheOutput() throws Exception {
        runtime.scriptCommand(List.of("cat", "/tmp/healthy"), Script.prints("ok\n", "", 0));

        assertThat(prober.probe(containerId, List.of("cat", "/tmp/healthy"), TIMEOUT))
                .isEqualTo(ProbeOutcome.success("ok\n"));
    }

    @Test
    void aNonZeroExitIsAFailureWithStdoutThenStderr() throws Exception {
        runtime.scriptCommand(List.of("check"), Script.prints("partial\n", "db down\n", 3));

        assertThat(prober.probe(containerId, List.of("check"), TIMEOUT))
                .isEqualTo(ProbeOutcome.failure("partial\ndb down\n"));
    }

    @Test
    void theOutputIsCutAtTenKibibytes() throws Exception {
        runtime.scriptCommand(List.of("noisy"), Script.prints("o".repeat(8 * 1024), "e".repeat(8 * 1024), 1));

        String output = prober.probe(containerId, List.of("noisy"), TIMEOUT).output();

        assertThat(output).hasSize(ExecProber.MAX_READ_LENGTH).startsWith("o".repeat(8 * 1024)).endsWith("e");
    }

    @Test
    void aCommandStillRunningAtTheTimeoutFails() throws Exception {
        runtime.scriptCommand(List.of("sh", "-c", "sleep 10"), Script.exitsWith(0).lasting(Duration.ofSeconds(10)));

        assertThat(prober.probe(containerId, List.of("sh", "-c", "sleep 10"), TIMEOUT))
                .isEqualTo(ProbeOutcome.failure("command \"sh -c sleep 10\" timed out"));
    }

    @Test
    void aRuntimeThatCannotExecIsAnError() {
        runtime.exitContainer(containerId, 0, null);

        assertThatThrownBy(() -> prober.probe(containerId, List.of("true"), TIMEOUT))
                .isInstanceOf(ProbeException.class)
                .hasMessageContaining("exec \"true\" in container " + containerId + " failed")
                .hasMessageContaining("not running");
    }
}
