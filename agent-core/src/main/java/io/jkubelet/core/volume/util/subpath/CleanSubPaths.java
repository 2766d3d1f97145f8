package io.jkubelet.core.volume.util.subpath;

import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.MountPoints;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Upstream {@code doCleanSubPaths}: every subPath bind mount of one volume of a pod, of every container, unmounted and
 * removed ({@code <pod>/volume-subpaths/<volume>/<container>/<index>}), then the directories that held them.
 */
final class CleanSubPaths {
    private static final Logger log = LoggerFactory.getLogger(CleanSubPaths.class);

    private CleanSubPaths() {}

    static void clean(HostMounts mounts, Path podDir, String volumeName) throws SubpathException {
        Path podSubPathDir = podDir.resolve(PodDirs.VOLUME_SUBPATHS_DIR_NAME);
        Path subPathDir = podSubPathDir.resolve(volumeName);
        if (!Files.isDirectory(subPathDir, LinkOption.NOFOLLOW_LINKS)) {
            return; // no volume mount of the volume had a subPath
        }
        log.debug("Cleaning up subpath mounts for {}", subPathDir);
        // The mount table names the directories as the kernel resolved them.
        Path real = BindSubPath.realPath(subPathDir);
        try (DirectoryStream<Path> containers = Files.newDirectoryStream(real)) {
            for (Path containerDir : containers) {
                if (!Files.isDirectory(containerDir, LinkOption.NOFOLLOW_LINKS)) {
                    log.debug("Container file is not a directory: {}", containerDir);
                    continue;
                }
                cleanContainer(mounts, containerDir);
            }
        } catch (IOException e) {
            throw new SubpathException("error reading " + subPathDir + ": " + e);
        }
        delete(real);
        try {
            Files.deleteIfExists(podSubPathDir);
        } catch (DirectoryNotEmptyException e) {
            // another volume's subPaths are still there
        } catch (IOException e) {
            throw new SubpathException("error deleting " + podSubPathDir + ": " + e);
        }
    }

    /** The container's subPaths, each an unmounted mount point removed ({@code CleanupMountPoint}), then its directory. */
    private static void cleanContainer(HostMounts mounts, Path containerDir) throws SubpathException {
        try (DirectoryStream<Path> subPaths = Files.newDirectoryStream(containerDir)) {
            for (Path subPath : subPaths) {
                try {
                    MountPoints.cleanupMountPoint(mounts, subPath).tearDown();
                } catch (VolumeException e) {
                    throw new SubpathException("error processing " + containerDir + ": error cleaning subpath mount "
                            + subPath + ": " + e.getMessage());
                }
                log.debug("Successfully cleaned subpath directory {}", subPath);
            }
        } catch (IOException e) {
            throw new SubpathException("error processing " + containerDir + ": " + e);
        }
        delete(containerDir);
    }

    private static void delete(Path dir) throws SubpathException {
        try {
            Files.delete(dir);
        } catch (NoSuchFileException e) {
            // gone already
        } catch (IOException e) {
            throw new SubpathException("error deleting " + dir + ": " + e);
        }
    }
}
