package io.jkubelet.core.stats;

import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.stats.summary.Summary;

import java.time.Instant;
import java.util.List;

/**
 * One collection round: the summary {@code /stats/summary} serves, the runtime's raw per-sandbox stats
 * (for cAdvisor-style metrics, which label containers with runtime ids, names and images), and the error of
 * the latest round if it failed (then the data is the previous round's). Immutable: handlers may cache what
 * they encode from one snapshot by identity.
 *
 * @param error {@code null} when the round that produced this snapshot succeeded
 */
public record StatsSnapshot(Instant collectedAt, Summary summary, List<PodSandboxStats> sandboxes, String error) {
    public StatsSnapshot {
        sandboxes = List.copyOf(sandboxes);
    }

    StatsSnapshot failed(String message) {
        return new StatsSnapshot(collectedAt, summary, sandboxes, message);
    }
}
