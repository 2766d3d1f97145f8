package io.jkubelet.deviceplugin;

import java.io.IOException;
import java.nio.file.Path;

/** Device plugins served in the test JVM, for tests of other packages. */
public final class TestPlugins {
    private TestPlugins() {}

    /** A plugin of {@code resource} with these healthy devices, registered on {@code kubeletSocket}. */
    public static AutoCloseable registered(Path kubeletSocket, String resource, String... devices) throws IOException {
        TestDevicePlugin p = new TestDevicePlugin(kubeletSocket.resolveSibling("dp.test"), resource, devices);
        p.register(kubeletSocket);
        return p;
    }
}
