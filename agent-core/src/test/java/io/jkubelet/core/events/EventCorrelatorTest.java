package io.jkubelet.core.events;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.testing.Pods;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class EventCorrelatorTest {
    private final FakeClock clock = new FakeClock(Instant.parse("2026-12-03T10:00:00Z"));
    private final EventCorrelator correlator = new EventCorrelator(clock);
    private final ApiserverEventRecorder maker = new ApiserverEventRecorder(null, "node-a", (r, t, re, m) -> {}, clock,
            ApiserverEventRecorder.RateLimiter.UNLIMITED, d -> {}, 1);

    private Event event(String podName, String reason, String message) {
        return maker.makeEvent(References.pod(Pods.pod(podName, Pods.container("a"))), EventRecorder.NORMAL, reason, message);
    }

    /** The apiserver's answer to a write: the event with a resourceVersion. */
    private static Event stored(Event e, String rv) {
        return new EventBuilder(e).editMetadata().withResourceVersion(rv).endMetadata().build();
    }

    @Test
    void identicalEventBecomesPatchOfCountLastTimestampAndMessage() {
        Event first = event("web", "BackOff", "Back-off");
        EventCorrelator.Result r1 = correlator.correlate(first).orElseThrow();
        assertThat(r1.patch()).isEmpty();
        correlator.updateState(stored(r1.event(), "10"));

        clock.advance(Duration.ofMinutes(30)); // no time limit on deduplication, only the LRU
        EventCorrelator.Result r2 = correlator.correlate(event("web", "BackOff", "Back-off")).orElseThrow();
        assertThat(r2.event().getMetadata().getName()).isEqualTo(first.getMetadata().getName());
        assertThat(r2.event().getMetadata().getResourceVersion()).isEqualTo("10");
        assertThat(r2.event().getCount()).isEqualTo(2);
        assertThat(r2.event().getFirstTimestamp()).isEqualTo("2026-12-03T10:00:00Z");
        assertThat(r2.patch()).contains(Map.of("count", 2, "lastTimestamp", "2026-12-03T10:30:00Z", "message", "Back-off"));

        // Another message is another event.
        assertThat(correlator.correlate(event("web", "BackOff", "other")).orElseThrow().patch()).isEmpty();
    }

    @Test
    void tenSimilarEventsWithinTenMinutesAreCombined() {
        for (int i = 0; i < 9; i++) {
            Event e = correlator.correlate(event("web", "Failed", "message " + i)).orElseThrow().event();
            assertThat(e.getMessage()).isEqualTo("message " + i);
        }
        Event tenth = correlator.correlate(event("web", "Failed", "message 9")).orElseThrow().event();
        assertThat(tenth.getMessage()).isEqualTo("(combined from similar events): message 9");
        correlator.updateState(stored(tenth, "5"));
        EventCorrelator.Result eleventh = correlator.correlate(event("web", "Failed", "message 10")).orElseThrow();
        assertThat(eleventh.event().getCount()).isEqualTo(2);
        assertThat(eleventh.event().getMetadata().getName()).isEqualTo(tenth.getMetadata().getName());
        assertThat(eleventh.patch().orElseThrow()).containsEntry("message", "(combined from similar events): message 10");

        // More than 10 minutes later the count starts again.
        clock.advance(Duration.ofMinutes(11));
        assertThat(correlator.correlate(event("web", "Failed", "message 11")).orElseThrow().event().getMessage())
                .isEqualTo("message 11");
    }

    @Test
    void spamFilterLetsTwentyFivePerObjectThenOneEveryFiveMinutes() {
        for (int i = 0; i < 25; i++) {
            assertThat(correlator.correlate(event("web", "R" + i, "m"))).isPresent();
        }
        assertThat(correlator.correlate(event("web", "R25", "m"))).isEmpty();
        // Another object has its own budget.
        assertThat(correlator.correlate(event("db", "R0", "m"))).isPresent();
        clock.advance(Duration.ofMinutes(5));
        assertThat(correlator.correlate(event("web", "R26", "m"))).isPresent();
        assertThat(correlator.correlate(event("web", "R27", "m"))).isEqualTo(Optional.empty());
    }
}
