package io.jkubelet.core.volume;

/**
 * Upstream's {@code OperationNotSupported}: the plugin cannot do what was asked for this volume (a CSI driver without
 * the capability), which is taken as nothing to do.
 */
public final class OperationNotSupportedException extends VolumeException {
    public OperationNotSupportedException(String message) {
        super(message);
    }
}
