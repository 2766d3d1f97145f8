package io.jkubelet.core.util;

import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class BackoffTest {
    @Test
    void doublesFromTenSecondsToFiveMinutes() {
        FakeClock clock = new FakeClock();
        Backoff b = new Backoff(clock, Duration.ofSeconds(10), Duration.ofSeconds(300));
        long[] expected = {10, 20, 40, 80, 160, 300, 300};
        for (long e : expected) {
            b.next("k", clock.instant());
            assertThat(b.get("k")).isEqualTo(Duration.ofSeconds(e));
            clock.advance(Duration.ofSeconds(1));
        }
    }

    @Test
    void inBackOffUntilTheDelayHasPassedSinceTheEvent() {
        FakeClock clock = new FakeClock();
        Backoff b = new Backoff(clock, Duration.ofSeconds(10), Duration.ofSeconds(300));
        Instant died = clock.instant();
        assertThat(b.isInBackOffSince("k", died)).isFalse();
        b.next("k", died);
        clock.advance(Duration.ofSeconds(9));
        assertThat(b.isInBackOffSince("k", died)).isTrue();
        assertThat(b.remaining("k", died)).isEqualTo(Duration.ofSeconds(1));
        clock.advance(Duration.ofSeconds(1));
        assertThat(b.isInBackOffSince("k", died)).isFalse();
    }

    @Test
    void resetsAfterTenMinutesWithoutFailure() {
        FakeClock clock = new FakeClock();
        Backoff b = new Backoff(clock, Duration.ofSeconds(10), Duration.ofSeconds(300));
        b.next("k", clock.instant());
        b.next("k", clock.instant());
        assertThat(b.get("k")).isEqualTo(Duration.ofSeconds(20));
        clock.advance(Duration.ofMinutes(10).plusSeconds(1));
        b.next("k", clock.instant());
        assertThat(b.get("k")).isEqualTo(Duration.ofSeconds(10));
    }
}
