package io.jkubelet.core.volume;

/**
 * Upstream's {@code UncertainProgressError}: the operation failed, but what it asked for may be done or still under way
 * (a CSI driver that did not answer within its deadline, or whose connection broke; a volume published whose
 * {@code fsGroup} could not be applied). The volume is then held as perhaps mounted: set up again while its pod wants
 * it, torn down (unpublished, unstaged) once no pod does.
 */
public final class UncertainProgressException extends VolumeException {
    public UncertainProgressException(String message) {
        super(message);
    }
}
