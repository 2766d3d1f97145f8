package io.jkubelet.core.cm.devicemanager;

import io.jkubelet.core.pluginmanager.PluginWatcherHandler;

import java.nio.file.Path;
import java.util.List;

/** {@link DevicePluginServer#none()}: serves nothing, and refuses what the plugin watcher finds. */
final class NoDevicePluginServer implements DevicePluginServer, PluginWatcherHandler {
    static final NoDevicePluginServer INSTANCE = new NoDevicePluginServer();

    private NoDevicePluginServer() {}

    @Override
    public void start(PluginHandler handler) {}

    @Override
    public void stop() {}

    @Override
    public Path socketPath() {
        return null;
    }

    @Override
    public PluginWatcherHandler watcherHandler() {
        return this;
    }

    @Override
    public void validatePlugin(String pluginName, String endpoint, List<String> versions) {
        throw new IllegalArgumentException("this kubelet serves no device plugins");
    }

    @Override
    public void registerPlugin(String pluginName, String endpoint, List<String> versions) {
        throw new IllegalStateException("this kubelet serves no device plugins");
    }

    @Override
    public void deRegisterPlugin(String pluginName, String endpoint) {}
}
