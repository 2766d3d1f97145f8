package io.jkubelet.core.prober;

/**
 * Told when a cached probe result changes (upstream: the results managers' {@code Updates()} channels the
 * sync loop selects over). A liveness or startup {@link io.jkubelet.core.probe.ProbeResult#FAILURE} means the
 * pod must be synced so the container is killed and restarted; a readiness or startup change means the
 * pod's status must be regenerated.
 *
 * <p>Called on a probe worker's thread, once per change (never for a result that was already cached), with
 * no lock of the probe manager held. It must not block: hand the update to the sync loop and return.
 */
@FunctionalInterface
public interface ProbeResultListener {
    ProbeResultListener NONE = update -> {};

    void resultChanged(ProbeUpdate update);
}
