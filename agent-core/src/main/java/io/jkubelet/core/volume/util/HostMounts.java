package io.jkubelet.core.volume.util;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The machine's mount table and the {@code mount}/{@code umount} commands (upstream's {@code mount.Interface} of
 * mount-utils). Thread-safe.
 */
public interface HostMounts {
    /**
     * One mount as {@code /proc/self/mountinfo} lists it.
     *
     * @param id the mount's id, unique in the table
     * @param device its file system's {@code major:minor}
     * @param root the directory of that file system the mount shows (a bind mount's source within it, {@code /} for
     *     the whole file system)
     * @param optionalFields the fields between the mount options and the {@code -} separator: the mount's propagation
     *     ({@code shared:N}, {@code master:N}, {@code propagate_from:N}, {@code unbindable}); none for a private mount
     */
    record MountPoint(String id, String device, String root, Path path, String fsType, String source,
                      List<String> optionalFields) {
        public MountPoint {
            optionalFields = List.copyOf(optionalFields);
        }

        /**
         * The root, within this mount's file system, of {@code below} (a path at or below {@link #path()}, as the
         * kernel would show a bind mount of it in {@link #root()}): {@code /disks/vol1/a} for {@code <path>/a} of a
         * mount of {@code /disks/vol1}.
         */
        public String rootOf(Path below) {
            String rel = path.relativize(below).toString();
            if (rel.isEmpty()) {
                return root;
            }
            return root.endsWith("/") ? root + rel : root + "/" + rel;
        }

        /** Whether mounts and unmounts below it reach its peers (upstream's {@code isShared}: a {@code shared:} field). */
        public boolean isShared() {
            return optionalFields.stream().anyMatch(f -> f.startsWith("shared:"));
        }
    }

    /** Whether something is mounted at {@code path} itself (upstream's {@code !IsLikelyNotMountPoint}). */
    boolean isMountPoint(Path path);

    /**
     * Upstream's cheap test ({@code !IsLikelyNotMountPoint} by {@code stat}): whether {@code path} is on another device
     * than its parent directory. It never misses a file system mounted there (a tmpfs), but misses a bind mount within
     * one file system: use it only where the kubelet itself mounts a file system of its own, on paths it checks often.
     * By default the exact {@link #isMountPoint}.
     */
    default boolean isLikelyMountPoint(Path path) {
        return isMountPoint(path);
    }

    /** The mount at {@code path}, if any. */
    Optional<MountPoint> mountAt(Path path);

    /**
     * The mount {@code path} lives on (upstream's {@code findMountInfo}): of the mounts at {@code path} or at one of its
     * ancestors (whole path segments: {@code /var/lib/kubelet2} is not below {@code /var/lib/kubelet}), the one the table
     * lists last, which is the one that shows there. Empty when none does (the table could not be read).
     */
    Optional<MountPoint> mountHolding(Path path);

    /**
     * Upstream's {@code GetMountRefs}: the other mount points that show the same directory as {@code path} (the bind
     * mounts of it, or of the file system mounted there), or none when {@code path} does not exist.
     *
     * @throws MountException when the mount that holds {@code path} cannot be told
     */
    List<Path> mountRefs(Path path) throws MountException;

    /**
     * Runs {@code mount -t fsType -o options source target}.
     *
     * @throws MountException mount-utils' {@code mount failed: ...} with the command, its arguments and its output
     */
    void mount(String source, Path target, String fsType, List<String> options) throws MountException;

    /**
     * Bind-mounts {@code source} at {@code target}, then remounts it with {@code options} (e.g. {@code ro}) when there
     * are any, as mount-utils does for a bind mount with options.
     */
    void bindMount(Path source, Path target, List<String> options) throws MountException;

    /**
     * Runs {@code mount --make-rshared mountPoint}: the mount there and every mount below it become shared, so that what
     * is mounted below it later, here or in a container given it with {@code Bidirectional} propagation, shows in both.
     * Use {@link HostUtil#makeRShared} for a directory that may not be a mount point.
     *
     * @throws MountException as {@link #mount}
     */
    void makeRShared(Path mountPoint) throws MountException;

    /**
     * Runs {@code umount target}.
     *
     * @throws MountException {@code unmount failed: ...} with the target and the output
     */
    void unmount(Path target) throws MountException;
}
