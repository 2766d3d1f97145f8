package io.jkubelet.core.cm.devicemanager;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What the device plugin server tells the manager (upstream {@code plugin.RegistrationHandler} and
 * {@code plugin.ClientHandler}). Called from the server's threads; implementations are thread-safe.
 */
public interface PluginHandler {
    /** Before the registration socket is made: removes the sockets left in its directory by the last run. */
    void cleanupPluginDirectory(Path dir) throws IOException;

    /**
     * A plugin asked to register on the kubelet's socket (upstream's {@code Register}), before its request is checked:
     * what {@code kubelet_device_plugin_registration_total} counts. Registrations through the plugin watcher are not
     * counted, as upstream's are not.
     */
    void registrationRequested(String resourceName);

    /**
     * A plugin registered and its socket answers: the manager asks its options and takes it as its resource's
     * endpoint, in place of any earlier one.
     *
     * @throws DevicePluginException when the plugin's options cannot be had (the registration fails)
     */
    void pluginConnected(String resourceName, DevicePlugin plugin) throws DevicePluginException;

    /**
     * The plugin's {@code ListAndWatch} ended or it deregistered: its devices become unhealthy at once, and its resource
     * leaves the node after the grace period unless it registers again.
     */
    void pluginDisconnected(String resourceName, DevicePlugin plugin);

    /** The plugin's latest {@code ListAndWatch} answer: its whole device list. */
    void pluginListAndWatchReceiver(String resourceName, List<Device> devices);
}
