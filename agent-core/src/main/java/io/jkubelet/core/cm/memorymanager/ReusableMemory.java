package io.jkubelet.core.cm.memorymanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.cm.topologymanager.BitMask;
import io.jkubelet.core.podutil.PodSpecs;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The memory of a pod's regular init containers that its later containers may take again (upstream's
 * {@code initContainersReusableMemory}): init containers run one after the other and are done before the app containers
 * start, so what the largest of them pinned to a set of NUMA nodes is reused there instead of being taken twice. Held
 * for the pod being admitted only; restartable (sidecar) init containers run throughout and give nothing back.
 */
final class ReusableMemory {
    /** Pod UID → NUMA mask ({@code [0 1]}) → memory type → bytes. */
    private final Map<String, Map<String, Map<String, Long>>> byPod = new HashMap<>();

    /** What the pod may reuse of this type on exactly these nodes. */
    long get(Pod pod, BitMask mask, String type) {
        return byPod.getOrDefault(pod.getMetadata().getUid(), Map.of()).getOrDefault(mask.toString(), Map.of())
                .getOrDefault(type, 0L);
    }

    /**
     * Upstream's {@code updatePodReusableMemory}: a regular init container's blocks become reusable (the largest per
     * mask and type); an app container's blocks use up what was reusable. Other pods' entries are dropped.
     */
    void update(Pod pod, Container container, List<MemoryBlock> blocks) {
        String uid = pod.getMetadata().getUid();
        byPod.keySet().removeIf(other -> !other.equals(uid));
        if (isRegularInitContainer(pod, container)) {
            Map<String, Map<String, Long>> masks = byPod.computeIfAbsent(uid, k -> new HashMap<>());
            for (MemoryBlock b : blocks) {
                masks.computeIfAbsent(BitMask.of(b.numaAffinity()).toString(), k -> new HashMap<>())
                        .merge(b.type(), b.size(), Math::max);
            }
            return;
        }
        for (MemoryBlock b : blocks) {
            BitMask mask = BitMask.of(b.numaAffinity());
            long reusable = get(pod, mask, b.type());
            if (reusable != 0) {
                byPod.get(uid).get(mask.toString()).put(b.type(), Math.max(0, reusable - b.size()));
            }
        }
    }

    /** An init container that runs to completion before the next one starts (not a sidecar). */
    static boolean isRegularInitContainer(Pod pod, Container container) {
        return PodSpecs.initContainers(pod).stream().anyMatch(c -> c.getName().equals(container.getName()))
                && !PodSpecs.isRestartableInitContainer(container);
    }
}
