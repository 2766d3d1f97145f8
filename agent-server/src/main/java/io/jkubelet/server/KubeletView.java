package io.jkubelet.server;

import io.fabric8.kubernetes.api.model.Pod;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;

/**
 * What the HTTP servers read from the kubelet core to answer {@code /pods} and {@code /runningpods/}.
 * The wiring implements it over the pod manager and the runtime; the servers never change pods through it.
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

    /**
     * The runtime's containers and streaming calls for {@code /exec}, {@code /attach} and {@code
     * /portForward}; {@link io.jkubelet.server.streaming.ContainerStreaming#NONE} when there is no runtime.
     */
    default io.jkubelet.server.streaming.ContainerStreaming streaming() {
        return io.jkubelet.server.streaming.ContainerStreaming.NONE;
    }
}
