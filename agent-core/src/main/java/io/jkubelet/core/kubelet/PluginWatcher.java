package io.jkubelet.core.kubelet;

import io.jkubelet.core.pluginmanager.PluginManager;
import io.jkubelet.core.pluginmanager.PluginWatcherHandler;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.csi.CsiDrivers;
import io.jkubelet.core.volume.csi.CsiRegistrationHandler;

import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The plugin manager as the kubelet wires it (upstream's {@code pluginManager} in {@code NewMainKubelet}, its handlers
 * added in {@code initializeRuntimeDependentModules}): the watcher of {@code <root-dir>/plugins_registry} with the CSI
 * plugin's registration of drivers and the device manager's of device plugins.
 */
final class PluginWatcher {
    private final PluginManager pluginManager;
    /** One store of registered drivers: the registration fills it, the CSI volume plugin's mounts look drivers up in it. */
    private final CsiDrivers csiDrivers = new CsiDrivers();
    /** The CSI plugin's registration of drivers found by the watcher (upstream {@code csi.PluginHandler}). */
    private final CsiRegistrationHandler csiPlugin;

    /** @param registrations where the watcher's registrations run (the pod workers' virtual threads) */
    PluginWatcher(PodDirs dirs, KubeletDeps deps, String nodeName, Executor registrations) {
        this.pluginManager = new PluginManager(dirs.pluginsRegistrationDir(), deps.pluginRegistration(), deps.clock(),
                registrations);
        this.csiPlugin = new CsiRegistrationHandler(csiDrivers, deps.csiDrivers(), deps.cluster().csiNodeInfo(nodeName));
    }

    /** The CSI drivers registered so far, for the CSI volume plugin. */
    CsiDrivers csiDrivers() {
        return csiDrivers;
    }

    /**
     * Upstream's {@code pluginManager.AddHandler} (CSI drivers, then device plugins, which see the {@code DEPRECATION}
     * file) and {@code Run}: a reconcile every second on {@code timers}.
     */
    void start(PluginWatcherHandler devicePlugins, ScheduledExecutorService timers) {
        pluginManager.addHandler(PluginManager.CSI_PLUGIN, csiPlugin);
        pluginManager.addHandler(PluginManager.DEVICE_PLUGIN, devicePlugins);
        pluginManager.start(timers);
    }
}
