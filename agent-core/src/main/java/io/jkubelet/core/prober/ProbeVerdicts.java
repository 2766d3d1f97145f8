package io.jkubelet.core.prober;

/**
 * The liveness and startup results the runtime manager's {@code ComputePodActions} needs to decide whether a
 * running container must be killed, and whether a sidecar has started (upstream's {@code proberesults} as
 * {@code kuberuntime} reads them). The probe manager implements it.
 * Thread-safe implementations; each call answers for the container's current probe results.
 */
public interface ProbeVerdicts {
    /** No probes: nothing has failed, and every container counts as started. */
    ProbeVerdicts NONE = new ProbeVerdicts() {
        @Override public boolean livenessFailed(String containerId) { return false; }
        @Override public boolean startupFailed(String containerId) { return false; }
        @Override public boolean startupSucceeded(String containerId) { return true; }
    };

    boolean livenessFailed(String containerId);

    boolean startupFailed(String containerId);

    /**
     * Whether the container's startup probe has succeeded (upstream: {@code startupManager.Get(id)} is
     * {@code Success}). Asked only for running sidecars (restartable init containers) that have a startup
     * probe: the next init container starts only once this is true. No result yet, or {@code Unknown},
     * is {@code false}.
     *
     * <p>The default, {@code true}, suits callers without a probe manager; a probe manager must override it.
     */
    default boolean startupSucceeded(String containerId) {
        return true;
    }
}
