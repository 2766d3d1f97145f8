package io.jkubelet.core.volumemanager.reconciler;

import io.jkubelet.core.volume.PodDirs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Upstream {@code getVolumesFromPodDir}: the volumes left under {@code <root-dir>/pods/<uid>/volumes/<plugin>/<name>}
 * (the plugin's name escaped, {@code kubernetes.io~empty-dir}) and the raw block volumes under
 * {@code <root-dir>/pods/<uid>/volumeDevices/<plugin>/<name>}, what a restarted kubelet reconstructs.
 */
final class PodVolumeDirs {
    private static final Logger log = LoggerFactory.getLogger(PodVolumeDirs.class);

    /**
     * One volume directory of a pod.
     *
     * @param block whether it is a raw block volume's link (upstream's {@code volumeMode} {@code Block})
     */
    record PodVolume(String podName, String volumeSpecName, Path volumePath, String pluginName, boolean block) {}

    private PodVolumeDirs() {}

    static List<PodVolume> list(PodDirs dirs) {
        List<PodVolume> volumes = new ArrayList<>();
        if (!Files.isDirectory(dirs.podsDir())) {
            return volumes;
        }
        try (DirectoryStream<Path> pods = Files.newDirectoryStream(dirs.podsDir())) {
            for (Path pod : pods) {
                String uid = pod.getFileName().toString();
                addVolumes(uid, dirs.volumesDir(uid), false, volumes);
                addVolumes(uid, dirs.volumeDevicesDir(uid), true, volumes);
            }
        } catch (IOException e) {
            log.error("Could not read the pods' volume directories under {}: {}", dirs.podsDir(), e.getMessage());
        }
        return volumes;
    }

    private static void addVolumes(String uid, Path volumesDir, boolean block, List<PodVolume> volumes)
            throws IOException {
        if (!Files.isDirectory(volumesDir)) {
            return;
        }
        try (DirectoryStream<Path> plugins = Files.newDirectoryStream(volumesDir)) {
            for (Path plugin : plugins) {
                if (!Files.isDirectory(plugin)) {
                    continue;
                }
                String pluginName = plugin.getFileName().toString().replace('~', '/');
                try (DirectoryStream<Path> names = Files.newDirectoryStream(plugin)) {
                    for (Path name : names) {
                        volumes.add(new PodVolume(uid, name.getFileName().toString(), name, pluginName, block));
                    }
                }
            }
        }
    }
}
