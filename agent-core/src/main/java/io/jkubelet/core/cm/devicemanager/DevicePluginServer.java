package io.jkubelet.core.cm.devicemanager;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The device plugins' registration server (upstream {@code plugin.Server}): serves the {@code Registration} service on
 * {@link #socketPath()}, connects to each plugin that registers (directly, or through the plugin watcher's
 * {@link #watcherHandler()}) and runs its {@code ListAndWatch}, reporting to the {@link PluginHandler}.
 */
public interface DevicePluginServer {
    /** Upstream {@code pluginapi.KubeletSocket}: fixed, whatever the kubelet's root directory. */
    Path KUBELET_SOCKET = Path.of("/var/lib/kubelet/device-plugins/kubelet.sock");

    /**
     * Cleans the socket directory through the handler and starts serving.
     *
     * @throws IOException when the directory or the socket cannot be made
     */
    void start(PluginHandler handler) throws IOException;

    /** Disconnects every plugin and stops serving; the socket goes. Idempotent. */
    void stop();

    /** The registration socket; its directory holds the plugins' sockets and the manager's checkpoint. */
    Path socketPath();

    /**
     * The plugin watcher's handler of {@code DevicePlugin} sockets (upstream {@code GetPluginHandler}); asking for it
     * writes the {@code DEPRECATION} file in the socket directory, which tells plugins to register through the
     * watcher rather than on {@link #socketPath()}.
     */
    io.jkubelet.core.pluginmanager.PluginWatcherHandler watcherHandler();

    /** No server: no plugin can register, and the manager keeps no checkpoint. For tests and nodes without devices. */
    static DevicePluginServer none() {
        return NoDevicePluginServer.INSTANCE;
    }
}
