package io.jkubelet.core.cm.devicemanager;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One resource's plugin as the manager holds it (upstream {@code endpointImpl} with its {@code endpointInfo}): the
 * plugin and its options while it is connected; once it disconnects, or for a resource read back from the checkpoint
 * before its plugin registers again, the time it stopped, from which its resource is kept for
 * {@link #STOP_GRACE_PERIOD}. Thread-safe.
 */
final class Endpoint {
    /** Upstream {@code endpointStopGracePeriod}: how long a resource outlives its plugin's going. */
    static final Duration STOP_GRACE_PERIOD = Duration.ofMinutes(5);

    private final String resource;
    /** Null for a resource known only from the checkpoint. */
    private final DevicePlugin plugin;
    private final DevicePluginOptions options;
    private Instant stopTime;

    Endpoint(DevicePlugin plugin, DevicePluginOptions options) {
        this.resource = plugin.resource();
        this.plugin = plugin;
        this.options = options;
    }

    private Endpoint(String resource, Instant stopTime) {
        this.resource = resource;
        this.plugin = null;
        this.options = null;
        this.stopTime = stopTime;
    }

    /** Upstream {@code newStoppedEndpointImpl}: a resource from the checkpoint, stopped now, until its plugin is back. */
    static Endpoint stopped(String resource, Instant now) {
        return new Endpoint(resource, now);
    }

    DevicePlugin plugin() {
        return plugin;
    }

    /** Null for a resource read back from the checkpoint (upstream's nil options: no call is needed). */
    DevicePluginOptions options() {
        return options;
    }

    synchronized boolean isStopped() {
        return stopTime != null;
    }

    synchronized boolean stopGracePeriodExpired(Instant now) {
        return stopTime != null && Duration.between(stopTime, now).compareTo(STOP_GRACE_PERIOD) > 0;
    }

    synchronized void setStopTime(Instant t) {
        stopTime = t;
    }

    /** @throws DevicePluginException when the plugin stopped, or its answer is an error */
    List<ContainerAllocateResponse> allocate(List<String> devices) throws DevicePluginException {
        return running().allocate(devices);
    }

    void preStartContainer(List<String> devices) throws DevicePluginException {
        running().preStartContainer(devices);
    }

    List<List<String>> getPreferredAllocation(List<String> available, List<String> mustInclude, int size)
            throws DevicePluginException {
        return running().getPreferredAllocation(available, mustInclude, size);
    }

    private DevicePlugin running() throws DevicePluginException {
        if (isStopped() || plugin == null) {
            // Upstream prints the endpoint struct here; its resource is what says which one.
            throw new DevicePluginException("endpoint " + resource + " has been stopped");
        }
        return plugin;
    }

    @Override
    public String toString() {
        return resource + (plugin == null ? "" : " at " + plugin.socketPath());
    }
}
