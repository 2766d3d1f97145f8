package io.jkubelet.core.kubelet;

import io.jkubelet.core.config.PodUpdate;
import io.jkubelet.core.pleg.PodLifecycleEvent;
import io.jkubelet.core.prober.ProbeUpdate;

/**
 * What wakes the sync loop, one case per channel of upstream's {@code syncLoopIteration}: a merged update
 * from the pod config, a PLEG event, a changed probe result, the sync tick and the housekeeping tick.
 */
public sealed interface SyncLoopEvent {

    /** The pod config's {@code configCh}. */
    record PodConfigUpdate(PodUpdate update) implements SyncLoopEvent {}

    /** The PLEG's {@code plegCh}. */
    record PlegEvent(PodLifecycleEvent event) implements SyncLoopEvent {}

    /** The probe managers' {@code livenessManager/readinessManager/startupManager.Updates()}. */
    record ProbeEvent(ProbeUpdate update) implements SyncLoopEvent {}

    /** {@code syncCh}: pods whose worker asked to be synced again by now. */
    record SyncTick() implements SyncLoopEvent {}

    /** {@code housekeepingCh}: clean up after pods that are gone. */
    record HousekeepingTick() implements SyncLoopEvent {}

    SyncTick SYNC_TICK = new SyncTick();
    HousekeepingTick HOUSEKEEPING_TICK = new HousekeepingTick();
}
