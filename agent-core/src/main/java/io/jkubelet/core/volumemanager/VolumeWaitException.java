package io.jkubelet.core.volumemanager;

/**
 * A pod's volumes were not mounted (or unmounted) in time, or could not be. {@link #interrupted()} tells a wait that
 * ran out or was cancelled (upstream's {@code wait.Interrupted}: the kubelet records no event for it) from one that
 * ended on the pod's processing errors (a claim not bound, a plugin missing: recorded as {@code FailedMount}).
 */
public final class VolumeWaitException extends Exception {
    private final boolean interrupted;

    public VolumeWaitException(String message, boolean interrupted) {
        super(message);
        this.interrupted = interrupted;
    }

    public boolean interrupted() {
        return interrupted;
    }
}
