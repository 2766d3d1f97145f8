package io.jkubelet.core.eviction;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.PodReference;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.VolumeStats;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.jkubelet.core.eviction.EvictionFixtures.MI;
import static io.jkubelet.core.eviction.EvictionFixtures.T0;
import static io.jkubelet.core.eviction.EvictionFixtures.apiPod;
import static io.jkubelet.core.eviction.EvictionFixtures.container;
import static org.assertj.core.api.Assertions.assertThat;

/** Local storage limits (localStorageCapacityIsolation): what makes a pod go whatever the node's thresholds say. */
class LocalStorageLimitsTest {

    private static FsStats used(long bytes) {
        return new FsStats(T0, null, null, bytes, null, null, 1L);
    }

    /** One container {@code app} with this writable layer and these logs, one emptyDir {@code cache} using so much. */
    private static PodStats stats(Pod pod, long rootfs, long logs, long cache) {
        return stats(pod, rootfs, logs, cache, rootfs + logs + cache);
    }

    private static PodStats stats(Pod pod, long rootfs, long logs, long cache, long podTotal) {
        return new PodStats(new PodReference(pod.getMetadata().getName(), "default", pod.getMetadata().getUid()), T0,
                List.of(new ContainerStats("app", T0, null, null, used(rootfs), used(logs))), null, null, null,
                List.of(new VolumeStats(used(cache), "cache", null)), used(podTotal), null);
    }

    private static Pod withCache(Pod pod, String sizeLimit) {
        return new PodBuilder(pod).editSpec().addNewVolume().withName("cache").withNewEmptyDir()
                .withSizeLimit(new Quantity(sizeLimit)).endEmptyDir().endVolume().endSpec().build();
    }

    @Test
    void anEmptyDirOverItsSizeLimit() {
        Pod pod = withCache(apiPod("p", "", ""), "64Mi");

        assertThat(LocalStorageLimits.exceeded(pod, stats(pod, 0, 0, 65 * MI), true))
                .contains("Usage of EmptyDir volume \"cache\" exceeds the limit \"64Mi\". ");
        assertThat(LocalStorageLimits.exceeded(pod, stats(pod, 0, 0, 64 * MI), true)).isEmpty();
    }

    @Test
    void aContainerOverItsLimitCountsItsWritableLayerOnlyWhenImagesShareTheNodesFileSystem() {
        Pod pod = apiPod("p", 0, container("app", "", "ephemeral-storage=100Mi"));
        // The pod's own total is checked first (and counts the container too): left out here to see the container's.
        assertThat(LocalStorageLimits.exceeded(pod, stats(pod, 90 * MI, 20 * MI, 0, 0), false))
                .contains("Container app exceeded its local ephemeral storage limit \"100Mi\". ");
        assertThat(LocalStorageLimits.exceeded(pod, stats(pod, 90 * MI, 20 * MI, 0, 0), true)).isEmpty();
        assertThat(LocalStorageLimits.exceeded(pod, stats(pod, 90 * MI, 20 * MI, 0), true))
                .contains("Pod ephemeral local storage usage exceeds the total limit of containers 100Mi. ");
    }

    @Test
    void aPodOverTheSumOfItsContainersLimits() {
        Pod pod = withCache(apiPod("p", 0, container("app", "", "ephemeral-storage=100Mi")), "1Gi");

        // The emptyDir is within its own limit, the container within its own; together they are over the pod's.
        assertThat(LocalStorageLimits.exceeded(pod, stats(pod, 0, 50 * MI, 60 * MI), true))
                .contains("Pod ephemeral local storage usage exceeds the total limit of containers 100Mi. ");
    }
}
