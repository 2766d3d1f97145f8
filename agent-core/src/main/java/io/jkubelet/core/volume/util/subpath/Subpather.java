package io.jkubelet.core.volume.util.subpath;

import io.jkubelet.core.volume.util.HostMounts;

import java.nio.file.Path;

/**
 * Upstream's {@code subpath.Interface} on Linux (CVE-2017-1002101's fix): a container's {@code subPath} is never handed
 * to the runtime as a path into the volume, which the runtime would resolve on the host, following any symlink a
 * container wrote there. Each subPath is made with {@link #safeMakeDir} when it is not there, then bind-mounted by
 * {@link #prepareSafeSubpath} at a target of its own under the pod's directory, after the check that it is within the
 * volume and with the check of what got mounted; the runtime gets that target. The mounts of a volume are unmounted by
 * {@link #cleanSubPaths} before the volume is torn down. Thread-safe: each call works on its own paths.
 */
public final class Subpather {
    private final HostMounts mounts;
    private final BindSubPath bindSubPath;
    private final SafeMakeDir safeMakeDir;

    public Subpather(HostMounts mounts) {
        this(mounts, () -> { }, () -> { });
    }

    /**
     * @param beforeMount runs between a subPath's check and its mount
     * @param beforeMakeDir runs between the check of a subPath's existing directories and the making of the others
     */
    Subpather(HostMounts mounts, Runnable beforeMount, Runnable beforeMakeDir) {
        this.mounts = mounts;
        this.bindSubPath = new BindSubPath(mounts, new CheckedBindMount(mounts, beforeMount));
        this.safeMakeDir = new SafeMakeDir(beforeMakeDir);
    }

    /**
     * Upstream {@code PrepareSafeSubpath}: bind-mounts the subPath at {@link Subpath#bindTarget()}, or finds it mounted
     * there already (the container's restart).
     *
     * @return the path to give the runtime
     * @throws SubpathException upstream's {@code subpath "<path>" not within volume path "<volume>"} for a subPath that
     *     leads out of its volume (a symlink), or why the mount failed; nothing is left mounted then
     */
    public Path prepareSafeSubpath(Subpath subpath) throws SubpathException {
        return bindSubPath.bind(subpath);
    }

    /**
     * Upstream {@code SafeMakeDir}: makes the directories of {@code subdir} below {@code base} that are not there, each
     * with mode {@code perm}.
     *
     * @throws SubpathException upstream's {@code path <path> is outside of allowed base <base>} when a directory on the
     *     way leads out of the volume; no directory is made outside it
     */
    public void safeMakeDir(String subdir, Path base, int perm) throws SubpathException {
        safeMakeDir.make(subdir, base, perm);
    }

    /**
     * Upstream {@code CleanSubPaths}: unmounts and removes the subPath mounts of the volume {@code volumeName} (its
     * inner spec name) of every container of the pod.
     *
     * @param podDir the pod's directory
     */
    public void cleanSubPaths(Path podDir, String volumeName) throws SubpathException {
        CleanSubPaths.clean(mounts, podDir, volumeName);
    }
}
