package io.jkubelet.core.kubelet;

import java.time.Duration;

/**
 * What a pod sync tells its worker about what comes next (upstream's {@code SyncPod} returns {@code isTerminal} and
 * an error; the requeue delay is jkubelet's, so that a back-off ending or a deadline passing is synced on time).
 *
 * @param terminal the pod will never run again (Succeeded or Failed): the worker moves on to terminating it
 * @param retryAfter when to sync again sooner than the resync interval (a back-off ending), or null
 * @param failed the sync failed as a whole: the pod backs off before runtime events may sync it again
 */
public record SyncOutcome(boolean terminal, Duration retryAfter, boolean failed) {
    public static final SyncOutcome OK = new SyncOutcome(false, null, false);
    public static final SyncOutcome TERMINAL = new SyncOutcome(true, null, false);
    public static final SyncOutcome FAILED = new SyncOutcome(false, null, true);

    /** A sync that went well, to be repeated after {@code retryAfter} (null: after the resync interval). */
    public static SyncOutcome retryAfter(Duration retryAfter) {
        return new SyncOutcome(false, retryAfter, false);
    }
}
