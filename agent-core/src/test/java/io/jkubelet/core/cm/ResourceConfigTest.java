package io.jkubelet.core.cm;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.jkubelet.core.testing.Pods.container;
import static io.jkubelet.core.testing.Pods.pod;
import static io.jkubelet.core.testing.Pods.quantities;
import static io.jkubelet.core.testing.Pods.sidecar;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pod cgroup's limits as upstream's {@code ResourceConfigForPod} computes them (cases after helpers_linux_test.go):
 * shares from requests, quota and memory from limits, by QoS class; init containers, sidecars and overhead counted
 * as the scheduler counts them.
 */
class ResourceConfigTest {
    private static final long PERIOD = 100_000;
    private static final long MI = 1024 * 1024;

    private static ResourceConfig forPod(Pod pod) {
        return ResourceConfig.forPod(pod, true, PERIOD);
    }

    @Test
    void guaranteedGetsSharesQuotaPeriodAndMemory() {
        Pod p = pod(container("a", "cpu=100m,memory=100Mi", "cpu=100m,memory=100Mi"));

        assertThat(forPod(p)).isEqualTo(new ResourceConfig(102L, 10_000L, PERIOD, 100 * MI, null));
    }

    @Test
    void withoutCfsQuotaTheQuotaIsUnlimited() {
        Pod p = pod(container("a", "cpu=100m,memory=100Mi", "cpu=100m,memory=100Mi"));

        assertThat(ResourceConfig.forPod(p, false, PERIOD)).isEqualTo(new ResourceConfig(102L, -1L, PERIOD, 100 * MI, null));
    }

    @Test
    void aCustomPeriodScalesTheQuota() {
        Pod p = pod(container("a", "cpu=1,memory=10Mi", "cpu=1,memory=10Mi"));

        assertThat(ResourceConfig.forPod(p, true, 50_000)).isEqualTo(new ResourceConfig(1024L, 50_000L, 50_000L, 10 * MI, null));
    }

    @Test
    void aTinyCpuLimitGetsTheKernelsSmallestQuota() {
        Pod p = pod(container("a", "cpu=1m,memory=10Mi", "cpu=1m,memory=10Mi"));

        assertThat(forPod(p).cpuQuota()).isEqualTo(1000L);
        assertThat(forPod(p).cpuShares()).isEqualTo(2L);
    }

    @Test
    void burstableWithoutLimitsGetsOnlyShares() {
        Pod p = pod(container("a", "cpu=100m,memory=100Mi", ""));

        assertThat(forPod(p)).isEqualTo(new ResourceConfig(102L, null, null, null, null));
    }

    @Test
    void burstableWhoseContainersAllSetLimitsGetsThem() {
        Pod p = pod(container("a", "cpu=100m,memory=100Mi", "cpu=200m,memory=200Mi"),
                container("b", "cpu=100m,memory=100Mi", "cpu=300m,memory=300Mi"));

        assertThat(forPod(p)).isEqualTo(new ResourceConfig(204L, 50_000L, PERIOD, 500 * MI, null));
    }

    @Test
    void aContainerWithoutALimitLeavesThatResourceUnlimitedForThePod() {
        Pod p = pod(container("a", "cpu=100m,memory=100Mi", "cpu=200m,memory=200Mi"),
                container("b", "cpu=100m,memory=100Mi", "memory=300Mi"));

        assertThat(forPod(p)).isEqualTo(new ResourceConfig(204L, null, null, 500 * MI, null));
    }

    @Test
    void bestEffortGetsTheFewestSharesAndNothingElse() {
        assertThat(forPod(pod(container("a", "", "")))).isEqualTo(new ResourceConfig(2L, null, null, null, null));
    }

    @Test
    void anInitContainerAskingMoreThanTheAppsSetsTheLimits() {
        Pod p = pod(List.of(container("app", "cpu=100m,memory=100Mi", "cpu=100m,memory=100Mi")),
                List.of(container("init", "cpu=500m,memory=400Mi", "cpu=500m,memory=400Mi")));

        assertThat(forPod(p)).isEqualTo(new ResourceConfig(512L, 50_000L, PERIOD, 400 * MI, null));
    }

    @Test
    void anInitContainerWithoutLimitsLeavesABurstablePodUnlimited() {
        Pod p = pod(List.of(container("app", "cpu=100m,memory=100Mi", "cpu=200m,memory=200Mi")),
                List.of(container("init", "cpu=50m", "")));

        assertThat(forPod(p)).isEqualTo(new ResourceConfig(102L, null, null, null, null));
    }

    @Test
    void sidecarsRunBesideTheAppsAndBesideEveryLaterInitContainer() {
        // apps + sidecar = 300m / 300Mi; the init container after the sidecar runs beside it: 250m + 100m = 350m.
        Pod p = pod(List.of(container("app", "cpu=200m,memory=200Mi", "cpu=200m,memory=200Mi")),
                List.of(sidecar("proxy", "cpu=100m,memory=100Mi", "cpu=100m,memory=100Mi"),
                        container("migrate", "cpu=250m,memory=50Mi", "cpu=250m,memory=50Mi")));

        ResourceConfig r = forPod(p);

        assertThat(r.cpuShares()).isEqualTo(358L); // 350m
        assertThat(r.cpuQuota()).isEqualTo(35_000L);
        assertThat(r.memory()).isEqualTo(300 * MI);
    }

    @Test
    void anInitContainerWithoutLimitsAfterASidecarWithLimitsStillDeclaresThem() {
        // While it runs, the sidecar's limits are in force: upstream's ContainerFn sees them.
        Pod p = pod(List.of(container("app", "cpu=200m,memory=200Mi", "cpu=400m,memory=400Mi")),
                List.of(sidecar("proxy", "cpu=100m,memory=100Mi", "cpu=100m,memory=100Mi"),
                        container("migrate", "cpu=50m", "")));

        ResourceConfig r = forPod(p);

        assertThat(r.cpuQuota()).isEqualTo(50_000L);
        assertThat(r.memory()).isEqualTo(500 * MI);
    }

    @Test
    void overheadAddsToRequestsAndToTheLimitsThatAreSet() {
        Pod p = pod(container("a", "cpu=100m,memory=100Mi", "cpu=100m,memory=100Mi"));
        p.getSpec().setOverhead(quantities("cpu=50m,memory=10Mi"));

        assertThat(forPod(p)).isEqualTo(new ResourceConfig(153L, 15_000L, PERIOD, 110 * MI, null));
    }

    @Test
    void overheadDoesNotInventALimit() {
        Pod p = pod(container("a", "cpu=100m,memory=100Mi", "memory=100Mi"));
        p.getSpec().setOverhead(quantities("cpu=50m,memory=10Mi"));

        assertThat(forPod(p)).isEqualTo(new ResourceConfig(153L, null, null, 110 * MI, null));
    }

    @Test
    void reservedResourcesBecomeSharesMemoryAndPids() {
        assertThat(ResourceConfig.forResources(Map.of("cpu", 1500L, "memory", 1000L, "pid", 300L, "pods", 110L)))
                .isEqualTo(new ResourceConfig(1536L, null, null, 1000L, 300L));
        assertThat(ResourceConfig.forResources(Map.of("cpu", 0L))).isEqualTo(ResourceConfig.cpuShares(2));
    }
}
