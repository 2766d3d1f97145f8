package io.jkubelet.core.eviction;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.jkubelet.core.podutil.PodResources;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.VolumeStats;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a pod uses more local storage than it may (upstream {@code localStorageEviction}, with
 * {@code localStorageCapacityIsolation}): an emptyDir volume over its {@code sizeLimit}, the pod over the sum of its
 * containers' {@code ephemeral-storage} limits, or a container over its own (its logs, and its writable layer when the
 * images share the node's file system). Such a pod is evicted whatever the node's thresholds say. Pure.
 */
final class LocalStorageLimits {
    static final String EMPTY_DIR = "Usage of EmptyDir volume \"%s\" exceeds the limit \"%s\". ";
    static final String POD = "Pod ephemeral local storage usage exceeds the total limit of containers %s. ";
    static final String CONTAINER = "Container %s exceeded its local ephemeral storage limit \"%s\". ";
    private static final String EPHEMERAL_STORAGE = Signal.Resource.EPHEMERAL_STORAGE.apiName();

    private LocalStorageLimits() {
    }

    /** Why the pod must go, in upstream's words, or empty when it keeps within its limits. */
    static Optional<String> exceeded(Pod pod, PodStats stats, boolean dedicatedImageFs) {
        return emptyDir(pod, stats).or(() -> podLimit(pod, stats)).or(() -> containerLimit(pod, stats, dedicatedImageFs));
    }

    private static Optional<String> emptyDir(Pod pod, PodStats stats) {
        Map<String, Long> used = new HashMap<>();
        for (VolumeStats v : stats.volume()) {
            used.put(v.name(), usedBytes(v.fs()));
        }
        List<Volume> volumes = pod.getSpec().getVolumes();
        for (Volume v : volumes == null ? List.<Volume>of() : volumes) {
            Quantity size = v.getEmptyDir() == null ? null : v.getEmptyDir().getSizeLimit();
            if (size == null || !used.containsKey(v.getName())) {
                continue;
            }
            long limit = PodResources.amount(EPHEMERAL_STORAGE, size);
            if (limit > 0 && used.get(v.getName()) > limit) {
                return Optional.of(EMPTY_DIR.formatted(v.getName(), Quantities.of(size).text()));
            }
        }
        return Optional.empty();
    }

    private static Optional<String> podLimit(Pod pod, PodStats stats) {
        Long limit = PodResources.limits(pod, c -> { }).get(EPHEMERAL_STORAGE);
        if (limit == null) {
            return Optional.empty();
        }
        long used = stats.ephemeralStorage() == null ? 0 : usedBytes(stats.ephemeralStorage());
        return used > limit ? Optional.of(POD.formatted(Quantities.binary(limit))) : Optional.empty();
    }

    private static Optional<String> containerLimit(Pod pod, PodStats stats, boolean dedicatedImageFs) {
        Map<String, Quantity> limits = new HashMap<>();
        for (Container c : PodSpecs.containers(pod)) {
            Quantity q = c.getResources() == null || c.getResources().getLimits() == null ? null
                    : c.getResources().getLimits().get(EPHEMERAL_STORAGE);
            if (q != null && PodResources.amount(EPHEMERAL_STORAGE, q) != 0) {
                limits.put(c.getName(), q);
            }
        }
        for (ContainerStats c : stats.containers()) {
            Quantity limit = limits.get(c.name());
            if (limit == null) {
                continue;
            }
            long used = usedBytes(c.logs()) + (dedicatedImageFs ? 0 : usedBytes(c.rootfs()));
            if (used > PodResources.amount(EPHEMERAL_STORAGE, limit)) {
                return Optional.of(CONTAINER.formatted(c.name(), Quantities.of(limit).text()));
            }
        }
        return Optional.empty();
    }

    private static long usedBytes(FsStats fs) {
        return fs == null || fs.usedBytes() == null ? 0 : fs.usedBytes();
    }
}
