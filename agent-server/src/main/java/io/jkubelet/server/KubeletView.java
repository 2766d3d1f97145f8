package io.jkubelet.server;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.stats.StatsSnapshot;
import io.jkubelet.core.stats.history.StatsHistory;
import io.jkubelet.core.timeline.PodTimeline;
import io.jkubelet.server.healthz.HealthcheckSlis;
import io.jkubelet.server.streaming.ContainerStreaming;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.Optional;

/**
 * What the HTTP servers read from the kubelet core to answer {@code /pods}, {@code /runningpods/}, {@code
 * /containerLogs/} and {@code /run/}. The wiring implements it over the pod manager and the runtime; the
 * servers never change pods through it (only {@code /run/} executes a command in a container).
 *
 * <p>Implementations must be thread-safe: many requests may call them at once, from virtual threads
 * (so they may block briefly). The returned lists and pods are only read, never modified, by the servers.
 */
public interface KubeletView {

    /**
     * The pods bound to this node, as the pod manager holds them (upstream {@code GetPods}): static pods
     * and apiserver pods, with their status. Answers {@code GET /pods}.
     */
    List<Pod> pods();

    /**
     * Pods built from what the container runtime runs now (upstream {@code GetRunningPods}): name,
     * namespace, UID and containers (name, image), no status. Answers {@code GET /runningpods/}.
     *
     * @throws Exception when the runtime cannot be listed; the request then gets 500 with its message
     */
    List<Pod> runningPods() throws Exception;

    /** The probe manager's metrics ({@code prober_probe_total}, ...), answering {@code GET /metrics/probes}. */
    PrometheusRegistry probeMetrics();

    /** The health check SLIs every health endpoint of the agent records, answering {@code GET /metrics/slis}. */
    HealthcheckSlis healthcheckSlis();

    /**
     * The stats provider's latest snapshot, answering {@code /stats/summary}, {@code /metrics/resource} and
     * {@code /metrics/cadvisor}; empty before the first collection round. Must not call the runtime.
     */
    default Optional<StatsSnapshot> stats() {
        return Optional.empty();
    }

    /**
     * The node's, pods' and containers' usage over the last 15 minutes, answering {@code /stats/history} and the
     * dashboard's charts; empty where the node keeps none.
     */
    default Optional<StatsHistory> statsHistory() {
        return Optional.empty();
    }

    /**
     * What happened to the pod {@code namespace/name} (the latest of that name), answering {@code
     * /debug/pods/<namespace>/<name>/timeline}; empty for a pod with none.
     */
    default Optional<PodTimeline> podTimeline(String namespace, String name) {
        return Optional.empty();
    }

    /**
     * The node as the dashboard shows it: capacity, allocatable, conditions and the runtime's version (the registered
     * node on a cluster node); empty when not known yet.
     */
    default Optional<Node> node() {
        return Optional.empty();
    }

    /** The kubelet's own metrics ({@code kubelet_running_pods}, ...), answering {@code GET /metrics}. */
    default PrometheusRegistry kubeletMetrics() {
        return MetricsHandlers.EMPTY_REGISTRY;
    }

    /**
     * What the runtime says about a container, for reading its log.
     *
     * @param logPath the container's log file (for a Docker container, the pod log path's symlink)
     * @param running whether the container runs now; a followed log ends once it does not
     */
    record ContainerLog(String logPath, boolean running) {}

    /**
     * The pod bound to this node with that namespace and name, with its latest status (upstream {@code
     * GetPodByName}; the status as the status manager holds it). Answers the pod lookups of {@code
     * /containerLogs/} and {@code /run/}.
     */
    default Optional<Pod> podByName(String namespace, String name) {
        return Optional.empty();
    }

    /**
     * The runtime's status of container {@code containerId} (no scheme), for its log (upstream's {@code
     * ContainerStatus} call in {@code GetContainerLogs} and in the follow loop).
     *
     * @throws Exception when the runtime does not know the container or cannot be asked
     */
    default ContainerLog containerLog(String containerId) throws Exception {
        throw new UnsupportedOperationException("container logs are not available");
    }

    /**
     * Runs {@code command} in the running container {@code containerName} of the pod {@code namespace/podName}
     * with no timeout, and returns its stdout followed by its stderr (upstream {@code RunInContainer}).
     *
     * @param podUid the UID from the request path, or null; as upstream, the pod is found by its name
     * @throws Exception with upstream's text when the container is not found ({@code container not found
     *     ("app")}) or the command fails or exits non-zero ({@code command 'false' exited with 1: })
     */
    default byte[] runInContainer(String namespace, String podName, String podUid, String containerName, List<String> command)
            throws Exception {
        throw new UnsupportedOperationException("running commands in containers is not available");
    }

    /**
     * The runtime's containers and streaming calls for {@code /exec}, {@code /attach} and {@code
     * /portForward}; {@link io.jkubelet.server.streaming.ContainerStreaming#NONE} when there is no runtime.
     */
    default ContainerStreaming streaming() {
        return ContainerStreaming.NONE;
    }
}
