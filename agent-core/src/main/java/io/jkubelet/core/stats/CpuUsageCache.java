package io.jkubelet.core.stats;

import io.jkubelet.core.runtime.CpuUsage;
import io.jkubelet.core.stats.summary.CpuStats;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Upstream's {@code cpuUsageCache}: {@code usageNanoCores}, the average CPU rate since the previous round, for what is
 * read only as a cumulative counter (the cgroups, {@code /proc/stat}), as upstream's CRI stats provider computes it for
 * runtimes that give none. Keyed by container id, and by {@link #pod}, {@link #systemContainer} and {@link #NODE}.
 *
 * <p>A round's readings replace the previous round's once it ends ({@link #endRound}): a round that failed half-way is
 * dropped at the next {@link #beginRound}, and a key that a completed round did not read is forgotten (upstream's
 * {@code cleanupOutdatedCaches}). Used by one round at a time (the collector's rounds never overlap).
 */
final class CpuUsageCache {
    /** The node's own counter ({@code /proc/stat}). */
    static final String NODE = "node";

    private record CpuPoint(Instant time, long usageNanos) {}

    private Map<String, CpuPoint> previous = new HashMap<>();
    private Map<String, CpuPoint> current = new HashMap<>();

    static String pod(String uid) {
        return "pod/" + uid;
    }

    static String systemContainer(String name) {
        return "system/" + name;
    }

    /** Starts a round: what a round that did not end had read is dropped. */
    void beginRound() {
        current = new HashMap<>();
    }

    /** Ends a round: its readings become the ones the next round's rates are measured from. */
    void endRound() {
        previous = current;
        current = new HashMap<>();
    }

    /** The stats of a counter read at {@code time}, with the rate since the previous round under {@code key}. */
    CpuStats cpuStats(String key, Instant time, long usageNanos) {
        return new CpuStats(time, usageNanoCores(key, time, usageNanos), usageNanos);
    }

    /** A container's CPU stats: the runtime's own rate when it gives one, else the rate since the previous round. */
    CpuStats containerCpuStats(String containerId, CpuUsage cpu) {
        if (cpu.usageNanoCores() == null) {
            return cpuStats(containerId, cpu.timestamp(), cpu.usageCoreNanoSeconds());
        }
        current.put(containerId, new CpuPoint(cpu.timestamp(), cpu.usageCoreNanoSeconds()));
        return new CpuStats(cpu.timestamp(), cpu.usageNanoCores(), cpu.usageCoreNanoSeconds());
    }

    /**
     * The average rate since the previous round, in nanoseconds of CPU per second; {@code null} in the first round, when
     * the counter went back (the container was replaced under the same key) or when no time passed.
     */
    Long usageNanoCores(String key, Instant time, long usageNanos) {
        current.put(key, new CpuPoint(time, usageNanos));
        CpuPoint before = previous.get(key);
        if (before == null || usageNanos < before.usageNanos()) {
            return null;
        }
        long elapsed = Duration.between(before.time(), time).toNanos();
        if (elapsed <= 0) {
            return null;
        }
        return (long) ((usageNanos - before.usageNanos()) * 1e9 / elapsed);
    }
}
