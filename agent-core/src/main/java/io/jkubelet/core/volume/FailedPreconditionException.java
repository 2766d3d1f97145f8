package io.jkubelet.core.volume;

/**
 * Upstream's {@code FailedPreconditionError}: a CSI driver answered {@code FailedPrecondition}, which for
 * {@code NodeExpandVolume} means it cannot expand the volume while it is in use; the kubelet does not try again on
 * this node, and the volume's mount goes on.
 */
public final class FailedPreconditionException extends VolumeException {
    public FailedPreconditionException(String message) {
        super(message);
    }
}
