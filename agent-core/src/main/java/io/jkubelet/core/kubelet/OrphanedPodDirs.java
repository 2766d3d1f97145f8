package io.jkubelet.core.kubelet;

import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.util.RemoveAll;
import io.jkubelet.core.volume.util.subpath.SubpathException;
import io.jkubelet.core.volume.util.subpath.Subpather;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;

/**
 * Upstream {@code cleanupOrphanedPodDirs} for one pod: its directory is removed only once none of its volumes is
 * mounted, or perhaps mounted; the volume directories go with {@code rmdir} (a volume's data is the plugin's to remove,
 * never the clean-up's), the rest without crossing into another file system. SubPath mounts left behind (each volume's
 * teardown unmounts its own, so only a teardown the kubelet did not see leaves one) are unmounted first, as the
 * teardown would: upstream only tries {@code rmdir} on them, and keeps the pod's directory for as long as one stays.
 */
final class OrphanedPodDirs {
    private static final Logger log = LoggerFactory.getLogger(OrphanedPodDirs.class);

    private final PodDirs dirs;
    /** Upstream {@code podVolumesExist}. */
    private final Predicate<String> podVolumesExist;
    private final Subpather subpather;

    OrphanedPodDirs(PodDirs dirs, Predicate<String> podVolumesExist, Subpather subpather) {
        this.dirs = dirs;
        this.podVolumesExist = podVolumesExist;
        this.subpather = subpather;
    }

    /** Removes the pod's directory, unless its volumes are still there (the next housekeeping tries again). */
    void cleanup(String uid) {
        Path podDir = dirs.podDir(uid);
        if (!Files.exists(podDir)) {
            return;
        }
        if (podVolumesExist.test(uid)) {
            log.debug("Orphaned pod {} found, but volumes are not cleaned up", uid);
            return;
        }
        try {
            cleanSubPaths(uid);
            removeVolumeDirs(uid);
            try (DirectoryStream<Path> children = Files.newDirectoryStream(podDir)) {
                for (Path child : children) {
                    RemoveAll.oneFilesystem(child);
                }
            }
            Files.deleteIfExists(podDir);
            log.debug("Orphaned pod {} found, removed its directory", uid);
        } catch (IOException e) {
            log.warn("Orphaned pod {} found, but failed to remove its directory {}: {}", uid, podDir, e.toString());
        } catch (SubpathException e) {
            log.warn("Orphaned pod {} found, but failed to clean its volume subpaths: {}", uid, e.getMessage());
        }
    }

    /** Each volume's subPath mounts ({@code volume-subpaths/<volume>}), as the volume's teardown cleans them. */
    private void cleanSubPaths(String uid) throws IOException, SubpathException {
        Path subpaths = dirs.volumeSubpathsDir(uid);
        if (!Files.isDirectory(subpaths)) {
            return;
        }
        try (DirectoryStream<Path> volumes = Files.newDirectoryStream(subpaths)) {
            for (Path volume : volumes) {
                subpather.cleanSubPaths(dirs.podDir(uid), volume.getFileName().toString());
            }
        }
    }

    /** Upstream {@code removeOrphanedPodVolumeDirs}: each volume directory with {@code rmdir}, then the plugins'. */
    private void removeVolumeDirs(String uid) throws IOException {
        Path volumes = dirs.volumesDir(uid);
        if (!Files.isDirectory(volumes)) {
            return;
        }
        try (DirectoryStream<Path> plugins = Files.newDirectoryStream(volumes)) {
            for (Path plugin : plugins) {
                if (Files.isDirectory(plugin)) {
                    try (DirectoryStream<Path> names = Files.newDirectoryStream(plugin)) {
                        for (Path name : names) {
                            Files.delete(name); // fails on a volume that still holds files
                        }
                    }
                }
                Files.delete(plugin);
            }
        }
        Files.delete(volumes);
    }
}
