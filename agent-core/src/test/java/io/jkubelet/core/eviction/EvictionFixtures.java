package io.jkubelet.core.eviction;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.MemoryStats;
import io.jkubelet.core.stats.summary.NodeStats;
import io.jkubelet.core.stats.summary.PodReference;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.ProcessStats;
import io.jkubelet.core.stats.summary.RlimitStats;
import io.jkubelet.core.stats.summary.RuntimeStats;
import io.jkubelet.core.stats.summary.Summary;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.jkubelet.core.testing.Pods.quantities;

/** Pods as the apiserver gives them and stats summaries as the stats provider makes them, for the eviction tests. */
final class EvictionFixtures {
    static final long MI = 1L << 20;
    static final long GI = 1L << 30;
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    private EvictionFixtures() {
    }

    /** A pod from the apiserver (not static) with one container {@code app} of these requests and limits. */
    static Pod apiPod(String name, String requests, String limits) {
        return apiPod(name, 0, container("app", requests, limits));
    }

    static Pod apiPod(String name, int priority, Container... containers) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .addToAnnotations("kubernetes.io/config.source", "api").endMetadata()
                .withNewSpec().withContainers(containers).withPriority(priority).withTerminationGracePeriodSeconds(30L)
                .endSpec().build();
    }

    static Container container(String name, String requests, String limits) {
        return new ContainerBuilder().withName(name).withImage("busybox").withNewResources()
                .withRequests(quantities(requests)).withLimits(quantities(limits)).endResources().build();
    }

    /** The stats of a pod whose containers use {@code workingSet} bytes of memory each, named as in its spec. */
    static PodStats memoryStats(Pod pod, Instant time, long... workingSet) {
        List<Container> containers = pod.getSpec().getContainers();
        List<ContainerStats> cs = new java.util.ArrayList<>();
        long total = 0;
        for (int i = 0; i < containers.size(); i++) {
            total += workingSet[i];
            cs.add(new ContainerStats(containers.get(i).getName(), time, null,
                    new MemoryStats(time, null, workingSet[i], workingSet[i], null, null, null), null, null));
        }
        return new PodStats(ref(pod), time, cs, null, new MemoryStats(time, null, total, total, null, null, null),
                null, List.of(), null, new ProcessStats(1L));
    }

    /** The stats of a pod whose one container has {@code rootfs} bytes in its writable layer and {@code logs} in logs. */
    static PodStats diskStats(Pod pod, Instant time, long rootfs, long logs) {
        String name = pod.getSpec().getContainers().getFirst().getName();
        ContainerStats c = new ContainerStats(name, time, null, null, new FsStats(time, null, null, rootfs, null, null, 10L),
                new FsStats(time, null, null, logs, null, null, 1L));
        return new PodStats(ref(pod), time, List.of(c), null, null, null, List.of(),
                new FsStats(time, null, null, rootfs + logs, null, null, 11L), null);
    }

    static PodStats processStats(Pod pod, Instant time, long processes) {
        return new PodStats(ref(pod), time, List.of(), null, null, null, List.of(), null, new ProcessStats(processes));
    }

    private static PodReference ref(Pod pod) {
        return new PodReference(pod.getMetadata().getName(), pod.getMetadata().getNamespace(), pod.getMetadata().getUid());
    }

    /** A node of 8Gi memory with {@code memoryAvailable} free; 100Gi disks with 50Gi free; 4M PIDs, 1000 used. */
    static Summary summary(Instant time, long memoryAvailable, PodStats... pods) {
        return summary(time, memoryAvailable, 50 * GI, 50 * GI, pods);
    }

    static Summary summary(Instant time, long memoryAvailable, long nodeFsAvailable, long imageFsAvailable,
                           PodStats... pods) {
        NodeStats node = new NodeStats("node-a", List.of(), T0,
                null, new MemoryStats(time, memoryAvailable, 8 * GI - memoryAvailable, 8 * GI - memoryAvailable, null, null, null),
                null, new FsStats(time, nodeFsAvailable, 100 * GI, 100 * GI - nodeFsAvailable, 900_000L, 1_000_000L, 100_000L),
                new RuntimeStats(new FsStats(time, imageFsAvailable, 100 * GI, 100 * GI - imageFsAvailable, 900_000L,
                        1_000_000L, 100_000L)),
                new RlimitStats(time, 4_194_304L, 1000L));
        return new Summary(node, List.of(pods));
    }

    static List<Threshold> thresholds(Map<String, String> hard) {
        return ThresholdParser.parseThresholdConfig(List.of(), hard, Map.of(), Map.of(), Map.of());
    }
}
