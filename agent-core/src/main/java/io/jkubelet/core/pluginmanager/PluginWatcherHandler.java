package io.jkubelet.core.pluginmanager;

import java.util.List;

/**
 * A consumer of one type of plugin found in the plugin registry directory (upstream {@code cache.PluginHandler}: the
 * device manager's for {@code DevicePlugin}, the CSI volume plugin's for {@code CSIPlugin}).
 */
public interface PluginWatcherHandler {
    /**
     * Whether the plugin's information can be used (upstream {@code ValidatePlugin}).
     *
     * @throws IllegalArgumentException naming what is wrong (an unsupported version, a bad name); the plugin is told so
     */
    void validatePlugin(String pluginName, String endpoint, List<String> versions);

    /**
     * Registers the plugin (upstream {@code RegisterPlugin}).
     *
     * @param endpoint the plugin's service socket: what the plugin named, or the registration socket itself
     * @throws Exception when it cannot be registered; the plugin is told the message
     */
    void registerPlugin(String pluginName, String endpoint, List<String> versions) throws Exception;

    /** The plugin's socket went (upstream {@code DeRegisterPlugin}). */
    void deRegisterPlugin(String pluginName, String endpoint);
}
