package io.jkubelet.core.cm.devicemanager;

import java.util.List;

/**
 * One registered device plugin's API, as the manager calls it (upstream {@code plugin.DevicePlugin}'s client). The
 * adapter (agent-deviceplugin) makes each call on the plugin's socket and puts upstream's deadlines on it; every method
 * may be called from any thread.
 */
public interface DevicePlugin {
    /** The extended resource the plugin registered ({@code vendor.com/name}). */
    String resource();

    /** The plugin's socket, as it registered it: what tells two registrations of one resource apart. */
    String socketPath();

    /** {@code GetDevicePluginOptions}. */
    DevicePluginOptions getDevicePluginOptions() throws DevicePluginException;

    /**
     * {@code GetPreferredAllocation} for one container.
     *
     * @return the device IDs of each container response (upstream reads the first), in the plugin's order
     */
    List<List<String>> getPreferredAllocation(List<String> available, List<String> mustInclude, int size)
            throws DevicePluginException;

    /**
     * {@code Allocate} of {@code devices} for one container.
     *
     * @return the plugin's container responses, in order (upstream uses the first, and refuses none)
     */
    List<ContainerAllocateResponse> allocate(List<String> devices) throws DevicePluginException;

    /** {@code PreStartContainer} of the container's devices. */
    void preStartContainer(List<String> devices) throws DevicePluginException;
}
