package io.jkubelet.core.eviction;

import io.jkubelet.core.stats.SystemContainers;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.MemoryStats;
import io.jkubelet.core.stats.summary.NodeStats;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.RlimitStats;
import io.jkubelet.core.stats.summary.Summary;

import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The signals of one stats summary (upstream {@code makeSignalObservations}), and each pod's stats by UID for ranking
 * ({@code cachedStatsFunc}). A signal the summary has no numbers for is left out. The {@code containerfs} signals are
 * not observed: the runtime keeps writable layers on the image file system, whose own signals stand for them.
 *
 * @param signals what each signal measured
 * @param podStats each pod's usage by UID
 */
public record SignalObservations(Map<Signal, Observation> signals, Map<String, PodStats> podStats) {

    public SignalObservations {
        Map<Signal, Observation> copy = new EnumMap<>(Signal.class);
        copy.putAll(signals);
        signals = Collections.unmodifiableMap(copy);
        podStats = Map.copyOf(podStats);
    }

    public Optional<Observation> get(Signal signal) {
        return Optional.ofNullable(signals.get(signal));
    }

    /** The pod's stats in the summary, or empty when the summary has none of it (it ranks first for eviction). */
    public Optional<PodStats> podStats(String uid) {
        return Optional.ofNullable(podStats.get(uid));
    }

    public static SignalObservations of(Summary summary) {
        Map<Signal, Observation> result = new EnumMap<>(Signal.class);
        NodeStats node = summary.node();
        memory(node.memory()).ifPresent(o -> result.put(Signal.MEMORY_AVAILABLE, o));
        node.systemContainers().stream().filter(c -> SystemContainers.PODS.equals(c.name())).findFirst()
                .map(ContainerStats::memory).flatMap(SignalObservations::memory)
                .ifPresent(o -> result.put(Signal.ALLOCATABLE_MEMORY_AVAILABLE, o));
        fs(node.fs(), Signal.NODEFS_AVAILABLE, Signal.NODEFS_INODES_FREE, result);
        if (node.runtime() != null) {
            fs(node.runtime().imageFs(), Signal.IMAGEFS_AVAILABLE, Signal.IMAGEFS_INODES_FREE, result);
        }
        RlimitStats rlimit = node.rlimit();
        if (rlimit != null && rlimit.maxPid() != null && rlimit.curProc() != null) {
            result.put(Signal.PID_AVAILABLE, new Observation(rlimit.maxPid() - rlimit.curProc(), rlimit.maxPid(), rlimit.time()));
        }
        Map<String, PodStats> pods = new HashMap<>();
        for (PodStats p : summary.pods()) {
            pods.put(p.podRef().uid(), p);
        }
        return new SignalObservations(result, pods);
    }

    /** Capacity is what is available plus the working set, as upstream takes it. */
    private static Optional<Observation> memory(MemoryStats m) {
        if (m == null || m.availableBytes() == null || m.workingSetBytes() == null) {
            return Optional.empty();
        }
        return Optional.of(new Observation(m.availableBytes(), m.availableBytes() + m.workingSetBytes(), m.time()));
    }

    private static void fs(FsStats fs, Signal available, Signal inodesFree, Map<Signal, Observation> into) {
        if (fs == null) {
            return;
        }
        if (fs.availableBytes() != null && fs.capacityBytes() != null) {
            into.put(available, new Observation(fs.availableBytes(), fs.capacityBytes(), fs.time()));
        }
        if (fs.inodesFree() != null && fs.inodes() != null) {
            into.put(inodesFree, new Observation(fs.inodesFree(), fs.inodes(), fs.time()));
        }
    }
}
