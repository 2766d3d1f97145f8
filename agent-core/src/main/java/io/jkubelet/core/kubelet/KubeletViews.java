package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.cm.devicemanager.DeviceCapacity;
import io.jkubelet.core.cm.devicemanager.DeviceManager;
import io.jkubelet.core.eviction.EvictionManager;
import io.jkubelet.core.metrics.KubeletMetrics;
import io.jkubelet.core.nodestatus.NodePressure;
import io.jkubelet.core.nodestatus.NodeVolumes;
import io.jkubelet.core.pleg.GenericPleg;
import io.jkubelet.core.pleg.RunningPod;
import io.jkubelet.core.podresources.PodResourcesLister;
import io.jkubelet.core.stats.StatsProvider;
import io.jkubelet.core.stats.StatsSnapshot;
import io.jkubelet.core.stats.history.StatsHistory;
import io.jkubelet.core.status.StatusManager;
import io.jkubelet.core.timeline.PodTimelines;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.List;
import java.util.Optional;

/**
 * What the HTTP servers, the health checks and the node status read of a running kubelet (upstream's kubelet
 * methods behind {@code server.HostInterface}): read-only views over the parts {@link Kubelet} assembled.
 */
public final class KubeletViews {
    private final PodManager podManager;
    private final StatusManager statusManager;
    private final GenericPleg pleg;
    private final EvictionManager evictionManager;
    private final SyncLoop syncLoop;
    private final PrometheusRegistry probeMetrics;
    private final KubeletMetrics metrics;
    private final StatsProvider stats;
    private final PodTimelines timelines;
    private final StatsHistory statsHistory;
    private final DeviceManager devices;
    private final PodResourcesLister podResources;
    private final NodeVolumes nodeVolumes;

    KubeletViews(PodManager podManager, StatusManager statusManager, GenericPleg pleg, EvictionManager evictionManager,
            SyncLoop syncLoop, PrometheusRegistry probeMetrics, KubeletMetrics metrics, StatsProvider stats,
            PodTimelines timelines, StatsHistory statsHistory, DeviceManager devices, NodeVolumes nodeVolumes,
            PodResourcesLister podResources) {
        this.nodeVolumes = nodeVolumes;
        this.podManager = podManager;
        this.statusManager = statusManager;
        this.pleg = pleg;
        this.evictionManager = evictionManager;
        this.syncLoop = syncLoop;
        this.probeMetrics = probeMetrics;
        this.metrics = metrics;
        this.stats = stats;
        this.timelines = timelines;
        this.statsHistory = statsHistory;
        this.devices = devices;
        this.podResources = podResources;
    }

    /** The volume manager's volumes in use, for the node status's {@code volumesInUse}. */
    public NodeVolumes nodeVolumes() {
        return nodeVolumes;
    }

    /** The node's desired pods with their latest status, for {@code /pods}. */
    public List<Pod> pods() {
        return podManager.pods().stream().map(statusManager::withLatestStatus).toList();
    }

    /** Pods as the runtime runs them, for {@code /runningpods/}. */
    public List<RunningPod> runningPods() {
        return pleg.runningPods();
    }

    /** The eviction manager's answers for the node's pressure conditions. */
    public NodePressure nodePressure() {
        return evictionManager;
    }

    /** Why the PLEG is unhealthy (upstream's "PLEG is not healthy: ..."), for {@code /healthz} and the node's readiness. */
    public Optional<String> plegHealth() {
        return pleg.healthy();
    }

    /** For {@code /healthz}'s syncloop check. */
    public long secondsSinceSyncLoopIteration() {
        return syncLoop.secondsSinceLastIteration();
    }

    /** The registry of {@code prober_probe_total} and {@code prober_probe_duration_seconds}, for {@code /metrics/probes}. */
    public PrometheusRegistry probeMetrics() {
        return probeMetrics;
    }

    /** The kubelet's own metrics ({@code kubelet_running_pods}, ...), for {@code /metrics}. */
    public PrometheusRegistry kubeletMetrics() {
        return metrics.registry();
    }

    /** The stats provider's latest round, for {@code /stats/summary} and the resource metrics. */
    public Optional<StatsSnapshot> stats() {
        return stats.latest();
    }

    /** Each pod's lifecycle as it happened, for {@code /debug/pods/<namespace>/<name>/timeline}. */
    public PodTimelines timelines() {
        return timelines;
    }

    /** The node's, pods' and containers' usage over the last 15 minutes, for {@code /stats/history}. */
    public StatsHistory statsHistory() {
        return statsHistory;
    }

    /** The device plugins' resources for the node's status (upstream's {@code GetDevicePluginResourceCapacity}). */
    public DeviceCapacity deviceCapacity() {
        return devices.getCapacity();
    }

    /** The pod-resources API's answers, for its server. */
    public PodResourcesLister podResources() {
        return podResources;
    }
}
