package io.jkubelet.core.volume;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Upstream {@code SetVolumeOwnership} ({@code pkg/volume/volume_linux.go}): a volume's files given to the pod's
 * {@code fsGroup}, so that its containers, which run with that group, can use them. Each file and directory, children
 * before their directory, gets the group ({@code lchown}) and the group's read and write ({@code 0660}; read only,
 * {@code 0440}, for a read-only volume); a directory also gets {@code setgid} and the search bits ({@code 0110}), so that
 * what is made in it later gets the group too; a symbolic link is given the group but not chmod'ed (that would change its
 * target). With {@code fsGroupChangePolicy: OnRootMismatch} nothing is done when the volume's root already has the
 * group, those bits and {@code setgid}. A file whose group or mode cannot be changed is logged and passed over, as
 * upstream's; only a tree that cannot be walked fails. Upstream's warning after 30 s ("could be slow") and its
 * operation-duration metric are not made. Used by the volume plugins that apply {@code fsGroup}, as upstream's: emptyDir,
 * gitRepo (after a revision's checkout), configMap, secret, downwardAPI and projected (with no change policy: always
 * every file), local and CSI.
 */
public final class VolumeOwnership {
    private static final Logger log = LoggerFactory.getLogger(VolumeOwnership.class);

    /** Upstream's {@code FSGroupChangeOnRootMismatch}. */
    public static final String ON_ROOT_MISMATCH = "OnRootMismatch";

    private static final int RW_MASK = 0660;
    private static final int RO_MASK = 0440;
    private static final int EXEC_MASK = 0110;
    private static final int SETGID = 02000;
    private static final int PERMISSIONS = 07777;
    private static final int TYPE = 0170000;
    private static final int DIRECTORY = 0040000;
    private static final int SYMLINK = 0120000;

    private VolumeOwnership() {}

    /**
     * @param dir the volume's root, as the pod's containers see it
     * @param fsGroup the pod's {@code fsGroup}; null changes nothing
     * @param fsGroupChangePolicy the pod's {@code fsGroupChangePolicy}; null (or {@code Always}) changes every file
     * @param readOnly the volume is mounted read-only: the group gets read, not write
     * @throws IOException when a directory of the volume cannot be read or one of its entries cannot be looked at
     */
    public static void setVolumeOwnership(Path dir, Long fsGroup, String fsGroupChangePolicy, boolean readOnly)
            throws IOException {
        if (fsGroup == null) {
            return;
        }
        if (ON_ROOT_MISMATCH.equals(fsGroupChangePolicy) && !requiresPermissionChange(dir, fsGroup, readOnly)) {
            log.debug("Skipping permission and ownership change for volume path={}", dir);
            return;
        }
        walkDeep(dir, fsGroup, readOnly);
    }

    /** Upstream {@code requiresPermissionChange}: whether the root (followed) lacks the group, its bits or setgid. */
    private static boolean requiresPermissionChange(Path root, long fsGroup, boolean readOnly) {
        int mode;
        int gid;
        try {
            mode = (Integer) Files.getAttribute(root, "unix:mode");
            gid = (Integer) Files.getAttribute(root, "unix:gid");
        } catch (IOException | RuntimeException e) {
            log.error("Performing recursive ownership change on rootDir because reading permissions of root volume failed "
                    + "path={}: {}", root, e.toString());
            return true;
        }
        if (gid != fsGroup || (mode & TYPE) != DIRECTORY) {
            return true;
        }
        int wanted = (readOnly ? RO_MASK : RW_MASK) | EXEC_MASK;
        return (mode & wanted) != wanted || (mode & SETGID) == 0;
    }

    /** Upstream {@code walkDeep}: every entry, not followed, unsorted, each directory after what it holds. */
    private static void walkDeep(Path path, long fsGroup, boolean readOnly) throws IOException {
        int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        if ((mode & TYPE) == DIRECTORY) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
                for (Path entry : entries) {
                    walkDeep(entry, fsGroup, readOnly);
                }
            }
        }
        changeFilePermission(path, mode, fsGroup, readOnly);
    }

    /** Upstream {@code changeFilePermission}: failures are logged, not returned. */
    private static void changeFilePermission(Path path, int mode, long fsGroup, boolean readOnly) {
        try {
            Files.setAttribute(path, "unix:gid", (int) fsGroup, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | RuntimeException e) {
            log.error("Lchown failed path={}: {}", path, e.toString());
        }
        if ((mode & TYPE) == SYMLINK) {
            return;
        }
        int mask = readOnly ? RO_MASK : RW_MASK;
        if ((mode & TYPE) == DIRECTORY) {
            mask |= SETGID | EXEC_MASK;
        }
        try {
            // chmod(2) as os.Chmod: the entry is no link (a no-follow chmod would open the file, and a FIFO blocks).
            Files.setAttribute(path, "unix:mode", (mode & PERMISSIONS) | mask);
        } catch (IOException | RuntimeException e) {
            log.error("chmod failed path={}: {}", path, e.toString());
        }
    }
}
