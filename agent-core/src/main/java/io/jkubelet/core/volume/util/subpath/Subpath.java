package io.jkubelet.core.volume.util.subpath;

import io.jkubelet.core.volume.PodDirs;

import java.nio.file.Path;

/**
 * One {@code subPath} of a container's volume mount (upstream's {@code subpath.Subpath}).
 *
 * @param volumeMountIndex the mount's index in the container's {@code volumeMounts}
 * @param path the subPath on the host: the volume's path joined with the subPath, symlinks not resolved
 * @param volumeName the volume's inner spec name (the pod's name for it, or its PersistentVolume's)
 * @param volumePath the volume's path on the host
 * @param podDir the pod's directory ({@code <root-dir>/pods/<uid>})
 * @param containerName the container that mounts it
 */
public record Subpath(int volumeMountIndex, Path path, String volumeName, Path volumePath, Path podDir,
                      String containerName) {
    /** The container's directory of the volume's subPath mounts: {@code <pod>/volume-subpaths/<volume>/<container>}. */
    Path containerDir() {
        return podDir.resolve(PodDirs.VOLUME_SUBPATHS_DIR_NAME).resolve(volumeName).resolve(containerName);
    }

    /**
     * Upstream {@code getSubpathBindTarget}: where the subPath is bind-mounted for the runtime,
     * {@code <pod>/volume-subpaths/<volume>/<container>/<index>} (a container name is a DNS label, safe as a name).
     */
    public Path bindTarget() {
        return containerDir().resolve(Integer.toString(volumeMountIndex));
    }
}
