package io.jkubelet.core.cm.devicemanager;

/**
 * A call to a device plugin failed. The message is what upstream's gRPC client says
 * ({@code rpc error: code = Unknown desc = ...}), since it reaches the pod's admission message as upstream's does.
 */
public final class DevicePluginException extends Exception {
    public DevicePluginException(String message) {
        super(message);
    }

    public DevicePluginException(String message, Throwable cause) {
        super(message, cause);
    }
}
