package io.jkubelet.core.volume.util.operationexecutor;

import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The operations on a volume: one at a time, and a failed one held back by its back-off, not another one. */
class NestedPendingOperationsTest {
    private final FakeClock clock = new FakeClock();
    private final NestedPendingOperations pending = new NestedPendingOperations(Runnable::run, clock);
    private final List<String> ran = new ArrayList<>();

    private boolean run(String operation, boolean fails) {
        return pending.run("vol", "", operation, () -> {
            ran.add(operation);
            if (fails) {
                throw new Exception(operation + " failed");
            }
        });
    }

    @Test
    void aFailedOperationWaitsForItsBackOffButAnotherOnTheVolumeStartsAtOnce() {
        assertThat(run("volume_mount", true)).isTrue();

        assertThat(run("volume_mount", true)).as("within 500 ms").isFalse();
        clock.advance(Duration.ofMillis(500));
        assertThat(run("volume_mount", true)).isTrue();
        clock.advance(Duration.ofMillis(500));
        assertThat(run("volume_mount", true)).as("doubled: 1 s").isFalse();

        assertThat(run("unmount_device", false)).as("the global unmount after the mount that failed").isTrue();
        assertThat(ran).containsExactly("volume_mount", "volume_mount", "unmount_device");
    }
}
