package io.jkubelet.core.kuberuntime;

/**
 * The liveness and startup results {@link ComputePodActions} needs to decide whether a running container
 * must be killed. Owned by its consumer; the probe manager implements it.
 */
public interface ProbeVerdicts {
    /** No probes: nothing has failed. */
    ProbeVerdicts NONE = new ProbeVerdicts() {
        @Override public boolean livenessFailed(String containerId) { return false; }
        @Override public boolean startupFailed(String containerId) { return false; }
    };

    boolean livenessFailed(String containerId);

    boolean startupFailed(String containerId);
}
