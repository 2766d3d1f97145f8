package io.jkubelet.core.eviction;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.jkubelet.core.podutil.PodResources;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.VolumeStats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The order pods are evicted in for each signal (upstream {@code rankMemoryPressure}, {@code rankPIDPressure},
 * {@code rankDiskPressureFunc}): first the pods whose usage exceeds their requests, then the lowest priority, then the
 * largest usage above the request. A pod the stats have nothing of goes first. Pure.
 */
final class PodRanking {
    /** Which of a pod's file system usage counts against a disk signal (upstream {@code fsStatsType}). */
    enum FsStatsType { ROOT, LOGS, LOCAL_VOLUME_SOURCE }

    /** Sorts pods for eviction, first to go first. */
    @FunctionalInterface
    interface RankFunc {
        List<Pod> rank(List<Pod> pods, SignalObservations stats);
    }

    private static final String EPHEMERAL_STORAGE = Signal.Resource.EPHEMERAL_STORAGE.apiName();

    private PodRanking() {
    }

    /**
     * Upstream {@code buildSignalToRankFunc} without a separate container file system: with a dedicated image file
     * system, the node's file system counts the pods' logs and local volumes and the image file system their writable
     * layers; on one file system, everything counts for both.
     */
    static Map<Signal, RankFunc> forSignals(boolean dedicatedImageFs) {
        Map<Signal, RankFunc> rank = new EnumMap<>(Signal.class);
        rank.put(Signal.MEMORY_AVAILABLE, PodRanking::memoryPressure);
        rank.put(Signal.ALLOCATABLE_MEMORY_AVAILABLE, PodRanking::memoryPressure);
        rank.put(Signal.PID_AVAILABLE, PodRanking::pidPressure);
        Set<FsStatsType> nodeFs = dedicatedImageFs ? EnumSet.of(FsStatsType.LOGS, FsStatsType.LOCAL_VOLUME_SOURCE)
                : EnumSet.allOf(FsStatsType.class);
        Set<FsStatsType> imageFs = dedicatedImageFs ? EnumSet.of(FsStatsType.ROOT) : EnumSet.allOf(FsStatsType.class);
        rank.put(Signal.NODEFS_AVAILABLE, diskPressure(nodeFs, false));
        rank.put(Signal.NODEFS_INODES_FREE, diskPressure(nodeFs, true));
        rank.put(Signal.IMAGEFS_AVAILABLE, diskPressure(imageFs, false));
        rank.put(Signal.IMAGEFS_INODES_FREE, diskPressure(imageFs, true));
        rank.put(Signal.CONTAINERFS_AVAILABLE, rank.get(dedicatedImageFs ? Signal.IMAGEFS_AVAILABLE : Signal.NODEFS_AVAILABLE));
        rank.put(Signal.CONTAINERFS_INODES_FREE,
                rank.get(dedicatedImageFs ? Signal.IMAGEFS_INODES_FREE : Signal.NODEFS_INODES_FREE));
        return rank;
    }

    /** Usage above requests first, then lower priority, then more memory above the request. */
    static List<Pod> memoryPressure(List<Pod> pods, SignalObservations stats) {
        ToLongFunction<PodStats> usage = s -> s.memory() == null || s.memory().workingSetBytes() == null ? 0
                : s.memory().workingSetBytes();
        return sorted(pods, exceedsRequests(stats, usage, Signal.Resource.MEMORY.apiName())
                .thenComparing(PodRanking::priority)
                .thenComparing(aboveRequest(stats, usage, Signal.Resource.MEMORY.apiName())));
    }

    /** Lower priority first, then more processes. */
    static List<Pod> pidPressure(List<Pod> pods, SignalObservations stats) {
        ToLongFunction<PodStats> processes = s -> s.processStats() == null || s.processStats().processCount() == null ? 0
                : s.processStats().processCount();
        Comparator<Pod> moreProcesses = (p1, p2) -> withStats(stats, p1, p2).orElseGet(() -> Long.compare(
                processes.applyAsLong(stats.podStats(uid(p2)).orElseThrow()),
                processes.applyAsLong(stats.podStats(uid(p1)).orElseThrow())));
        Comparator<Pod> lowerPriority = PodRanking::priority;
        return sorted(pods, lowerPriority.thenComparing(moreProcesses));
    }

    /**
     * Disk usage above requests first, then lower priority, then more usage above the pod's ephemeral-storage request
     * (for inodes too, as upstream subtracts that request from either).
     */
    static RankFunc diskPressure(Set<FsStatsType> measured, boolean inodes) {
        return (pods, stats) -> {
            Comparator<Pod> exceeds = (p1, p2) -> withStats(stats, p1, p2).orElseGet(() -> cmpBool(
                    exceeds(diskUsage(p1, stats, measured, inodes), request(p1, inodes ? "inodes" : EPHEMERAL_STORAGE)),
                    exceeds(diskUsage(p2, stats, measured, inodes), request(p2, inodes ? "inodes" : EPHEMERAL_STORAGE))));
            Comparator<Pod> more = (p1, p2) -> withStats(stats, p1, p2).orElseGet(() -> Long.compare(
                    diskUsage(p2, stats, measured, inodes) - request(p2, EPHEMERAL_STORAGE),
                    diskUsage(p1, stats, measured, inodes) - request(p1, EPHEMERAL_STORAGE)));
            return sorted(pods, exceeds.thenComparing(PodRanking::priority).thenComparing(more));
        };
    }

    /**
     * What the pod uses of the measured file systems (upstream {@code podDiskUsage}): its containers' writable layers
     * and logs, and its local volumes (hostPath, emptyDir on disk, configMap, gitRepo) as the stats name them.
     */
    static long diskUsage(Pod pod, SignalObservations stats, Set<FsStatsType> measured, boolean inodes) {
        PodStats s = stats.podStats(uid(pod)).orElseThrow();
        long total = 0;
        for (ContainerStats c : s.containers()) {
            if (measured.contains(FsStatsType.ROOT)) {
                total += used(c.rootfs(), inodes);
            }
            if (measured.contains(FsStatsType.LOGS)) {
                total += used(c.logs(), inodes);
            }
        }
        if (measured.contains(FsStatsType.LOCAL_VOLUME_SOURCE)) {
            Set<String> local = localVolumeNames(pod);
            for (VolumeStats v : s.volume()) {
                if (local.contains(v.name())) {
                    total += used(v.fs(), inodes);
                }
            }
        }
        return total;
    }

    private static long used(FsStats fs, boolean inodes) {
        if (fs == null) {
            return 0;
        }
        Long v = inodes ? fs.inodesUsed() : fs.usedBytes();
        return v == null ? 0 : v;
    }

    /** Upstream {@code localVolumeNames}: hostPath volumes and local ephemeral ones. */
    private static Set<String> localVolumeNames(Pod pod) {
        Set<String> names = new HashSet<>();
        List<Volume> volumes = pod.getSpec().getVolumes();
        for (Volume v : volumes == null ? List.<Volume>of() : volumes) {
            boolean diskEmptyDir = v.getEmptyDir() != null
                    && (v.getEmptyDir().getMedium() == null || v.getEmptyDir().getMedium().isEmpty());
            if (v.getHostPath() != null || v.getGitRepo() != null || v.getConfigMap() != null || diskEmptyDir) {
                names.add(v.getName());
            }
        }
        return names;
    }

    private static Comparator<Pod> exceedsRequests(SignalObservations stats, ToLongFunction<PodStats> usage,
            String resource) {
        return (p1, p2) -> withStats(stats, p1, p2).orElseGet(() -> cmpBool(
                exceeds(usage.applyAsLong(stats.podStats(uid(p1)).orElseThrow()), request(p1, resource)),
                exceeds(usage.applyAsLong(stats.podStats(uid(p2)).orElseThrow()), request(p2, resource))));
    }

    private static Comparator<Pod> aboveRequest(SignalObservations stats, ToLongFunction<PodStats> usage,
            String resource) {
        return (p1, p2) -> withStats(stats, p1, p2).orElseGet(() -> Long.compare(
                usage.applyAsLong(stats.podStats(uid(p2)).orElseThrow()) - request(p2, resource),
                usage.applyAsLong(stats.podStats(uid(p1)).orElseThrow()) - request(p1, resource)));
    }

    /** When either pod has no stats, the one without goes first (and two without are equal); else empty. */
    private static Optional<Integer> withStats(SignalObservations stats, Pod p1, Pod p2) {
        boolean found1 = stats.podStats(uid(p1)).isPresent();
        boolean found2 = stats.podStats(uid(p2)).isPresent();
        return found1 && found2 ? Optional.empty() : Optional.of(cmpBool(!found1, !found2));
    }

    /** Lower priority first (upstream {@code priority}); no priority is 0. */
    private static int priority(Pod p1, Pod p2) {
        return Integer.compare(priorityOf(p1), priorityOf(p2));
    }

    static int priorityOf(Pod pod) {
        Integer p = pod.getSpec() == null ? null : pod.getSpec().getPriority();
        return p == null ? 0 : p;
    }

    private static boolean exceeds(long usage, long request) {
        return usage > request;
    }

    /** The pod's request of {@code resource} (upstream {@code GetResourceRequestQuantity}); none is 0. */
    static long request(Pod pod, String resource) {
        return PodResources.requests(pod).getOrDefault(resource, 0L);
    }

    /** True before false (upstream {@code cmpBool}). */
    private static int cmpBool(boolean a, boolean b) {
        return a == b ? 0 : a ? -1 : 1;
    }

    private static String uid(Pod pod) {
        return pod.getMetadata().getUid();
    }

    private static List<Pod> sorted(List<Pod> pods, Comparator<Pod> order) {
        List<Pod> out = new ArrayList<>(pods);
        out.sort(order);
        return out;
    }
}
