package io.jkubelet.core.volume.csi;

import io.jkubelet.core.pluginmanager.PluginWatcherHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The CSI plugin's side of plugin registration (upstream csi's {@code RegistrationHandler}): the plugin watcher hands
 * it each {@code CSIPlugin} that node-driver-registrar announces in {@code <root-dir>/plugins_registry}. A driver is
 * accepted when it speaks CSI 1.x and no driver of its name speaking the same or a higher version is registered; it is
 * then stored (so that volumes of its name find its socket) and recorded on the node (its {@code NodeGetInfo} into
 * the {@code CSINode} and the node's annotation and labels, {@link NodeInfoManager}), and forgotten again when that
 * fails or its socket goes. The method names and contracts are the plugin watcher's handler's (upstream {@code PluginHandler}).
 */
public final class CsiRegistrationHandler implements PluginWatcherHandler {
    private static final Logger log = LoggerFactory.getLogger(CsiRegistrationHandler.class);
    /** Upstream's {@code CSIPluginName}: the prefix of the CSI plugin's messages. */
    public static final String CSI_PLUGIN_NAME = "kubernetes.io/csi";

    /** Upstream {@code csiTimeout}: how long the driver has to answer {@code NodeGetInfo} at registration. */
    static final Duration CSI_TIMEOUT = Duration.ofMinutes(2);

    private final CsiDrivers drivers;
    private final CsiDriverClient client;
    private final NodeInfoManager nodeInfo;

    /**
     * @param client the drivers' Node service, asked for {@code NodeGetInfo} at registration
     * @param nodeInfo where what the driver says of the node is recorded (the Node and CSINode objects)
     */
    public CsiRegistrationHandler(CsiDrivers drivers, CsiDriverClient client, NodeInfoManager nodeInfo) {
        this.drivers = drivers;
        this.client = client;
        this.nodeInfo = nodeInfo;
    }

    /**
     * Upstream {@code ValidatePlugin}.
     *
     * @throws IllegalArgumentException {@code validation failed for CSI Driver <name> at endpoint <endpoint>: <why>}
     */
    @Override
    public void validatePlugin(String pluginName, String endpoint, List<String> versions) {
        log.info("{}: Trying to validate a new CSI Driver with name: {} endpoint: {} versions: {}", CSI_PLUGIN_NAME,
                pluginName, endpoint, String.join(",", versions));
        try {
            validateVersions("ValidatePlugin", pluginName, versions);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("validation failed for CSI Driver " + pluginName + " at endpoint "
                    + endpoint + ": " + e.getMessage(), e);
        }
    }

    /**
     * Upstream {@code RegisterPlugin}: validates again (another driver of the name may have come meanwhile), stores the
     * driver, asks it for {@code NodeGetInfo} and records the answer on the node ({@link NodeInfoManager}); a driver
     * that does not answer or cannot be recorded is forgotten again.
     *
     * @throws Exception the validation's or the installation's error
     */
    @Override
    public void registerPlugin(String pluginName, String endpoint, List<String> versions) throws Exception {
        log.info("{}: Register new plugin with name: {} at endpoint: {}", CSI_PLUGIN_NAME, pluginName, endpoint);
        CsiVersion highest = validateVersions("RegisterPlugin", pluginName, versions);
        drivers.set(pluginName, new CsiDrivers.Driver(endpoint, highest));
        try {
            CsiDriverClient.NodeInfo info;
            try {
                info = client.nodeGetInfo(endpoint, CSI_TIMEOUT);
            } catch (Exception e) {
                log.warn("Error calling CSI NodeGetInfo(): {}", e.getMessage());
                throw e;
            }
            nodeInfo.installCsiDriver(pluginName, info.nodeId(), info.maxVolumesPerNode(), info.accessibleTopology());
        } catch (Exception e) {
            try {
                unregisterDriver(pluginName);
            } catch (Exception unregistering) {
                log.error("{}: registrationHandler.RegisterPlugin failed to unregister plugin due to previous error: {}",
                        CSI_PLUGIN_NAME, unregistering.getMessage());
            }
            throw e;
        }
    }

    /** Upstream {@code DeRegisterPlugin}: the driver's socket went. */
    @Override
    public void deRegisterPlugin(String pluginName, String endpoint) {
        log.info("{}: registrationHandler.DeRegisterPlugin request for plugin {}, endpoint {}", CSI_PLUGIN_NAME, pluginName,
                endpoint);
        try {
            unregisterDriver(pluginName);
        } catch (Exception e) {
            log.error("{}: registrationHandler.DeRegisterPlugin failed: {}", CSI_PLUGIN_NAME, e.getMessage());
        }
    }

    private void unregisterDriver(String pluginName) throws Exception {
        drivers.delete(pluginName);
        try {
            nodeInfo.uninstallCsiDriver(pluginName);
        } catch (Exception e) {
            throw new Exception(CSI_PLUGIN_NAME + ": Error uninstalling CSI driver: " + e.getMessage(), e);
        }
    }

    /** Upstream {@code validateVersions}: the highest 1.x the driver speaks, higher than a registered namesake's. */
    private CsiVersion validateVersions(String caller, String pluginName, List<String> versions) {
        if (versions.isEmpty()) {
            throw new IllegalArgumentException(CSI_PLUGIN_NAME + ": " + caller + " for CSI driver \"" + pluginName
                    + "\" failed. Plugin returned an empty list for supported versions");
        }
        CsiVersion highest;
        try {
            highest = CsiVersion.highestSupported(versions);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(CSI_PLUGIN_NAME + ": " + caller + " for CSI driver \"" + pluginName
                    + "\" failed. None of the versions specified " + goQuoted(versions) + " are supported. err="
                    + e.getMessage());
        }
        var existing = drivers.get(pluginName);
        if (existing.isPresent() && existing.get().highestSupportedVersion().compareTo(highest) >= 0) {
            throw new IllegalArgumentException(CSI_PLUGIN_NAME + ": " + caller + " for CSI driver \"" + pluginName
                    + "\" failed. Another driver with the same name is already registered with a higher supported "
                    + "version: \"" + existing.get().highestSupportedVersion() + "\"");
        }
        return highest;
    }

    /** Go's {@code %q} of a string slice: {@code ["1.0.0" "2.0.0"]}. */
    private static String goQuoted(List<String> values) {
        return values.stream().map(v -> "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
                .collect(Collectors.joining(" ", "[", "]"));
    }
}
