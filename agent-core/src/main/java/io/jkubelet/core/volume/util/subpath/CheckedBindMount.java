package io.jkubelet.core.volume.util.subpath;

import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.HostMounts.MountPoint;
import io.jkubelet.core.volume.util.MountException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;

/**
 * A bind mount of a path that was checked to be within its volume, and the check of what the kernel really mounted.
 *
 * <p>Between the check of a subPath and its mount, a container that writes to the volume can swap a directory on the
 * way for a symlink, which {@code mount(8)} would follow out of the volume. Upstream closes that window by opening the
 * path component by component with {@code O_NOFOLLOW} and mounting the descriptor ({@code /proc/<pid>/fd/<n>}), which
 * Java cannot do. Here the mount is checked once it is made: {@code /proc/self/mountinfo} shows of each mount its file
 * system ({@code major:minor}) and the directory of that file system it shows (its root). The bind of the checked path
 * must show exactly the device of the mount holding that path and that mount's root with the rest of the path appended,
 * both read before mounting; a bind of anything else (what a swapped-in symlink points at) shows another root or another
 * device, and is unmounted. The check is on what got mounted, so no swap before or during the mount gets past it.
 */
final class CheckedBindMount {
    private static final Logger log = LoggerFactory.getLogger(CheckedBindMount.class);

    private final HostMounts mounts;
    /** What runs between the check and the mount: nothing, or a test playing the container that swaps a directory. */
    private final Runnable beforeMount;

    CheckedBindMount(HostMounts mounts, Runnable beforeMount) {
        this.mounts = mounts;
        this.beforeMount = beforeMount;
    }

    /**
     * Bind-mounts {@code source} at {@code target}, and leaves it mounted only if what is mounted is {@code source}.
     *
     * @param source a path without symlinks, checked to be within its volume
     * @param target the existing directory or file to mount it at, its path without symlinks
     * @throws SubpathException when the mount fails, or shows something else than {@code source} (then unmounted)
     */
    void mount(Path source, Path target) throws SubpathException {
        MountPoint holder = mounts.mountHolding(source).orElseThrow(
                () -> new SubpathException("error mounting " + source + ": cannot find the mount that holds it"));
        String expectedRoot = holder.rootOf(source);
        beforeMount.run();
        try {
            mounts.bindMount(source, target, List.of());
        } catch (MountException e) {
            throw new SubpathException("error mounting " + source + ": " + e.getMessage());
        }
        MountPoint made = mounts.mountAt(target).orElse(null);
        if (made != null && made.device().equals(holder.device()) && made.root().equals(expectedRoot)) {
            return;
        }
        String shown = made == null ? "nothing" : "\"" + made.root() + "\" of device " + made.device();
        String why = "error mounting " + source + ": " + target + " shows " + shown + ", not \"" + expectedRoot
                + "\" of device " + holder.device() + " (the subpath changed while it was mounted)";
        log.warn("Refusing subpath mount: {}", why);
        if (made != null) {
            try {
                mounts.unmount(target);
            } catch (MountException e) {
                throw new SubpathException(why + "; " + e.getMessage());
            }
        }
        throw new SubpathException(why);
    }
}
