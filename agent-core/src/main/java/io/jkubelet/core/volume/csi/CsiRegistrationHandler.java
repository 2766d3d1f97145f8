package io.jkubelet.core.volume.csi;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The CSI plugin's side of plugin registration (upstream csi's {@code RegistrationHandler}): the plugin watcher hands
 * it each {@code CSIPlugin} that node-driver-registrar announces in {@code <root-dir>/plugins_registry}. A driver is
 * accepted when it speaks CSI 1.x and no driver of its name speaking the same or a higher version is registered; it is
 * then stored (so that volumes of its name find its socket) and installed on the node ({@link DriverInstaller}: its
 * {@code NodeGetInfo}, the {@code CSINode} and the node's annotation), and forgotten again when that fails or its
 * socket goes. The method names and contracts are the plugin watcher's handler's (upstream {@code PluginHandler}).
 */
public final class CsiRegistrationHandler {
    private static final Logger log = LoggerFactory.getLogger(CsiRegistrationHandler.class);
    /** Upstream's {@code CSIPluginName}: the prefix of the CSI plugin's messages. */
    public static final String CSI_PLUGIN_NAME = "kubernetes.io/csi";

    /** What registering a driver does on the node once it is stored, and undoes when it goes (upstream's nodeinfomanager). */
    public interface DriverInstaller {
        /**
         * Asks the driver at {@code endpoint} for its node information and installs it on the node.
         *
         * @throws Exception when the driver does not answer or the node cannot be updated; the driver is forgotten
         */
        void install(String driverName, String endpoint) throws Exception;

        /** Removes the driver from the node's objects. */
        void uninstall(String driverName) throws Exception;
    }

    private final CsiDrivers drivers;
    private final DriverInstaller installer;

    public CsiRegistrationHandler(CsiDrivers drivers, DriverInstaller installer) {
        this.drivers = drivers;
        this.installer = installer;
    }

    /**
     * Upstream {@code ValidatePlugin}.
     *
     * @throws IllegalArgumentException {@code validation failed for CSI Driver <name> at endpoint <endpoint>: <why>}
     */
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
     * driver, installs it; a driver that cannot be installed is forgotten.
     *
     * @throws Exception the validation's or the installation's error
     */
    public void registerPlugin(String pluginName, String endpoint, List<String> versions) throws Exception {
        log.info("{}: Register new plugin with name: {} at endpoint: {}", CSI_PLUGIN_NAME, pluginName, endpoint);
        CsiVersion highest = validateVersions("RegisterPlugin", pluginName, versions);
        drivers.set(pluginName, new CsiDrivers.Driver(endpoint, highest));
        try {
            installer.install(pluginName, endpoint);
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
            installer.uninstall(pluginName);
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
