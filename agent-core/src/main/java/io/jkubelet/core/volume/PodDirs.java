package io.jkubelet.core.volume;

import java.nio.file.Path;

/**
 * The kubelet's directory layout under {@code --root-dir} (upstream {@code kubelet_getters.go}):
 * {@code pods/<uid>/volumes/<plugin>/<name>}, {@code pods/<uid>/volumeDevices/<plugin>/<name>},
 * {@code pods/<uid>/volume-subpaths/<name>/<container>/<index>}, {@code pods/<uid>/plugins/<plugin>/},
 * {@code pods/<uid>/containers/<name>/}, {@code pods/<uid>/etc-hosts}.
 */
public record PodDirs(Path rootDir) {
    /** Upstream's {@code DefaultKubeletVolumeSubpathsDirName}: where a pod's subPath bind mounts are. */
    public static final String VOLUME_SUBPATHS_DIR_NAME = "volume-subpaths";

    public Path podsDir() {
        return rootDir.resolve("pods");
    }

    /** Upstream {@code getPluginsRegistrationDir}: where plugins put their registration sockets. */
    public Path pluginsRegistrationDir() {
        return rootDir.resolve("plugins_registry");
    }

    /** Upstream {@code getPodResourcesDir}: the pod-resources API's socket directory. */
    public Path podResourcesDir() {
        return rootDir.resolve("pod-resources");
    }

    public Path podDir(String uid) {
        return podsDir().resolve(uid);
    }

    public Path volumesDir(String uid) {
        return podDir(uid).resolve("volumes");
    }

    /** Upstream {@code getPodVolumeSubpathsDir}: the pod's subPath bind mounts, by volume, container and mount index. */
    public Path volumeSubpathsDir(String uid) {
        return podDir(uid).resolve(VOLUME_SUBPATHS_DIR_NAME);
    }

    /** Plugin names are escaped as upstream does: {@code kubernetes.io/empty-dir} -> {@code kubernetes.io~empty-dir}. */
    public Path volumeDir(String uid, String pluginName, String volumeName) {
        return volumesDir(uid).resolve(pluginName.replace('/', '~')).resolve(volumeName);
    }

    /**
     * Upstream {@code GetPodVolumeDeviceDir}: where a pod's raw block volumes of a plugin are linked
     * ({@code pods/<uid>/volumeDevices/<plugin>}, the plugin's name escaped as for volume directories).
     */
    public Path podVolumeDeviceDir(String uid, String pluginName) {
        return volumeDevicesDir(uid).resolve(pluginName.replace('/', '~'));
    }

    /** Upstream's {@code DefaultKubeletVolumeDevicesDirName} of a pod: {@code pods/<uid>/volumeDevices}. */
    public Path volumeDevicesDir(String uid) {
        return podDir(uid).resolve("volumeDevices");
    }

    /**
     * Upstream {@code GetVolumeDevicePluginDir}: a plugin's directory of the node's raw block volumes
     * ({@code <root-dir>/plugins/<plugin name>/volumeDevices}; the name as the plugin gives it: local escapes its own,
     * CSI does not).
     */
    public Path volumeDevicePluginDir(String pluginName) {
        return pluginDir(pluginName).resolve("volumeDevices");
    }

    /**
     * A plugin's own directory for one pod ({@code pods/<uid>/plugins/<plugin>}, escaped as volume directories are;
     * upstream's {@code GetPodPluginDir}): what the plugin keeps about the pod's volumes beside them.
     */
    public Path podPluginDir(String uid, String pluginName) {
        return podDir(uid).resolve("plugins").resolve(pluginName.replace('/', '~'));
    }

    /** A plugin's own directory for the node ({@code <root-dir>/plugins/<plugin name>}, upstream's {@code GetPluginDir}). */
    public Path pluginDir(String pluginName) {
        return rootDir.resolve("plugins").resolve(pluginName);
    }

    public Path containerDir(String uid, String containerName) {
        return podDir(uid).resolve("containers").resolve(containerName);
    }

    public Path etcHosts(String uid) {
        return podDir(uid).resolve("etc-hosts");
    }
}
