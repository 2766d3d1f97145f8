package io.jkubelet.core.stats;

import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.emptydir.EmptyDirPlugin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A pod's mounted volumes for its stats (upstream's {@code ListVolumesForPod}: the volume manager's); called on the
 * stats collector's thread. Thread-safe.
 */
@FunctionalInterface
public interface PodVolumeLister {
    List<PodVolume> volumes(String podUid);

    /**
     * The emptyDir directories under each pod's directory, on the node's disk, for a stats provider without a volume
     * manager.
     */
    static PodVolumeLister emptyDirsOnDisk(Path rootDir) {
        Logger log = LoggerFactory.getLogger(PodVolumeLister.class);
        PodDirs dirs = new PodDirs(rootDir);
        return uid -> {
            Path emptyDirs = dirs.volumesDir(uid).resolve(EmptyDirPlugin.NAME.replace('/', '~'));
            List<PodVolume> volumes = new ArrayList<>();
            if (Files.isDirectory(emptyDirs)) {
                try (DirectoryStream<Path> s = Files.newDirectoryStream(emptyDirs)) {
                    for (Path dir : s) {
                        volumes.add(new PodVolume(dir.getFileName().toString(), dir, VolumeMetrics.DU, null, true));
                    }
                } catch (IOException e) {
                    log.debug("cannot list {}: {}", emptyDirs, e.getMessage());
                }
            }
            return volumes;
        };
    }
}
