package io.jkubelet.core.cm.devicemanager;

import java.time.Duration;

/**
 * What the device manager tells the kubelet's metrics of its plugins (upstream's
 * {@code kubelet_device_plugin_registration_total} and {@code kubelet_device_plugin_alloc_duration_seconds}). Called
 * from the registration server's and the admitting threads; implementations are thread-safe.
 */
public interface DevicePluginMetrics {
    /** Counts nothing. */
    DevicePluginMetrics NONE = new DevicePluginMetrics() {
        @Override
        public void registrationRequested(String resourceName) {
        }

        @Override
        public void allocationTook(String resourceName, Duration took) {
        }
    };

    /** A plugin asked to register on the kubelet's socket, whether or not its request is good. */
    void registrationRequested(String resourceName);

    /** The resource's plugin answered an {@code Allocate} (or failed to) after {@code took}. */
    void allocationTook(String resourceName, Duration took);
}
