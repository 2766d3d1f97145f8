package io.jkubelet.cmd.e2e.apiserver;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/** What the mock apiserver was asked: requests by verb and resource, and when each pod was first reported Running. */
final class RequestStats {
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    /** namespace/name -> {uid, epoch nanoseconds the first status write with phase Running arrived}. */
    private final Map<String, String[]> running = new ConcurrentHashMap<>();

    static long nowNanos(Clock clock) {
        Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    void count(String verb, String resource) {
        counts.computeIfAbsent(verb + " " + resource, k -> new LongAdder()).increment();
    }

    void podRunning(String pod, String uid, long receivedNanos) {
        running.compute(pod, (k, old) -> old != null && old[0].equals(uid) ? old : new String[] {uid, Long.toString(receivedNanos)});
    }

    /** {@code {"create pods": 3, "patch pods/status": 7, ...}}, sorted. */
    String countsJson() {
        Map<String, Long> sorted = new TreeMap<>();
        counts.forEach((k, v) -> sorted.put(k, v.sum()));
        return sorted.entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + e.getValue())
                .collect(Collectors.joining(",", "{", "}"));
    }

    /** {@code {"default/p": {"uid": "...", "receivedNanos": 1733...}, ...}}. */
    String runningJson() {
        return new TreeMap<>(running).entrySet().stream()
                .map(e -> "\"" + e.getKey() + "\":{\"uid\":\"" + e.getValue()[0] + "\",\"receivedNanos\":" + e.getValue()[1] + "}")
                .collect(Collectors.joining(",", "{", "}"));
    }
}
