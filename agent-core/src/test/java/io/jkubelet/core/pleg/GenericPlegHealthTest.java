package io.jkubelet.core.pleg;

import static org.assertj.core.api.Assertions.assertThat;

import io.jkubelet.core.container.PodCache;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.util.DaemonThreads;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The PLEG's health reads as upstream's: unhealthy until a relist, and when the last is over 3 min old. */
class GenericPlegHealthTest {

    @Test
    void healthFollowsTheLastRelistWithGoDurations() {
        FakeClock clock = new FakeClock(Instant.parse("2026-12-03T10:00:00Z"));
        GenericPleg pleg = new GenericPleg(new FakeRuntime(clock), "node", e -> {}, clock, Duration.ofSeconds(1),
                new PodCache(), DaemonThreads.scheduler("pleg"));
        assertThat(pleg.healthy()).contains("pleg has yet to be successful");
        pleg.relist();
        assertThat(pleg.healthy()).isEmpty();
        clock.advance(Duration.ofMinutes(3));
        assertThat(pleg.healthy()).isEmpty();
        clock.advance(Duration.ofSeconds(1).plusMillis(500));
        assertThat(pleg.healthy()).contains("pleg was last seen active 3m1.5s ago; threshold is 3m0s");
    }
}
