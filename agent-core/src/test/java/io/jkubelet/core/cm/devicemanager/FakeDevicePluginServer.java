package io.jkubelet.core.cm.devicemanager;

import io.jkubelet.core.pluginmanager.PluginWatcherHandler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A registration server that serves nothing: tests play the server by calling the manager's handler methods. */
public final class FakeDevicePluginServer implements DevicePluginServer {
    private final Path socket;
    volatile PluginHandler handler;
    volatile boolean stopped;

    /** @param dir the socket directory (upstream's /var/lib/kubelet/device-plugins) */
    public FakeDevicePluginServer(Path dir) {
        this.socket = dir.resolve("kubelet.sock");
    }

    @Override
    public void start(PluginHandler handler) throws IOException {
        Files.createDirectories(socket.getParent());
        handler.cleanupPluginDirectory(socket.getParent());
        this.handler = handler;
    }

    @Override
    public void stop() {
        stopped = true;
    }

    @Override
    public Path socketPath() {
        return socket;
    }

    @Override
    public PluginWatcherHandler watcherHandler() {
        return DevicePluginServer.none().watcherHandler();
    }
}
