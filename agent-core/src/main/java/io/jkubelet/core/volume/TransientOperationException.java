package io.jkubelet.core.volume;

/**
 * Upstream's {@code TransientOperationFailure}: the operation could not start for a reason expected to pass (the CSI
 * driver is not registered yet, an object it needs could not be read). Neither finished nor uncertain: the volume's
 * state stays as it was, so that a volume perhaps mounted stays so until it is set up or torn down.
 */
public final class TransientOperationException extends VolumeException {
    public TransientOperationException(String message) {
        super(message);
    }
}
