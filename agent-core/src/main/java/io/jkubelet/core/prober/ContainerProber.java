package io.jkubelet.core.prober;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.probe.ProbeResult;

/**
 * Runs one probe of one running container once (upstream {@code prober.probe}): picks the handler
 * ({@code exec}, {@code httpGet}, {@code tcpSocket}, {@code grpc}) from the container's probe of that
 * type, retries a run that errored as upstream does, and records {@code Unhealthy} / {@code ProbeWarning}
 * events. The probe workers call it; they own periods, thresholds and results. Thread-safe.
 */
public interface ContainerProber {
    /**
     * @param podIp the pod's IP (the default host of {@code httpGet}, {@code tcpSocket} and {@code grpc}),
     *     or null when the pod has none yet
     * @param containerId the runtime id of the running container
     */
    ProbeResult probe(ProbeType type, Pod pod, String podIp, Container container, String containerId);
}
