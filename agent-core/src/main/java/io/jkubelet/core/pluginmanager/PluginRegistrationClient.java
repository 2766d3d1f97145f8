package io.jkubelet.core.pluginmanager;

import java.nio.file.Path;
import java.util.List;

/**
 * The plugin registration API (pluginregistration v1) as the plugin manager calls it on a plugin's registration
 * socket; the adapter (agent-deviceplugin) dials and puts upstream's deadlines on each call.
 */
public interface PluginRegistrationClient {
    /**
     * What the plugin says it is ({@code PluginInfo}).
     *
     * @param type {@code DevicePlugin} or {@code CSIPlugin}
     * @param endpoint its service socket, empty when it is the registration socket itself
     */
    record PluginInfo(String type, String name, String endpoint, List<String> supportedVersions) {}

    /**
     * {@code GetInfo}.
     *
     * @throws Exception when the socket does not answer (its message is upstream's)
     */
    PluginInfo getInfo(Path socket) throws Exception;

    /** {@code NotifyRegistrationStatus}. */
    void notifyRegistrationStatus(Path socket, boolean registered, String error) throws Exception;

    /** No client: every socket found is refused (for tests and nodes without plugins). */
    static PluginRegistrationClient none() {
        return new PluginRegistrationClient() {
            @Override
            public PluginInfo getInfo(Path socket) throws Exception {
                throw new Exception("this kubelet cannot call plugins");
            }

            @Override
            public void notifyRegistrationStatus(Path socket, boolean registered, String error) {}
        };
    }
}
