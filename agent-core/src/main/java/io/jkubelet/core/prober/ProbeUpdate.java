package io.jkubelet.core.prober;

import io.jkubelet.core.probe.ProbeResult;

import java.util.Objects;

/**
 * A cached probe result that changed (upstream {@code results.Update}): the container's new liveness,
 * readiness or startup verdict. {@code result} is {@link ProbeResult#SUCCESS}, {@link ProbeResult#FAILURE}
 * or {@link ProbeResult#UNKNOWN} (the initial startup value); never {@link ProbeResult#WARNING}, which the
 * workers record as success.
 */
public record ProbeUpdate(String podUid, String containerId, String containerName, ProbeType type, ProbeResult result) {
    public ProbeUpdate {
        Objects.requireNonNull(podUid, "podUid");
        Objects.requireNonNull(containerId, "containerId");
        Objects.requireNonNull(containerName, "containerName");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(result, "result");
    }
}
