package io.jkubelet.core.cm.devicemanager;

/**
 * What a plugin says it needs from the kubelet ({@code GetDevicePluginOptions}).
 *
 * @param preStartRequired call {@code PreStartContainer} before each start of a container given its devices
 * @param getPreferredAllocationAvailable the plugin answers {@code GetPreferredAllocation}
 */
public record DevicePluginOptions(boolean preStartRequired, boolean getPreferredAllocationAvailable) {
    public static final DevicePluginOptions NONE = new DevicePluginOptions(false, false);
}
