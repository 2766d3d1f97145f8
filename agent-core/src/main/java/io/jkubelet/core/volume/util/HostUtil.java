package io.jkubelet.core.volume.util;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Upstream's {@code hostutil}: what kind of file a host path is, following links as {@code stat(2)}, and the shared
 * mount the kubelet's root directory must be on.
 */
public final class HostUtil {
    private static final Logger log = LoggerFactory.getLogger(HostUtil.class);
    /** The file types upstream's {@code GetFileType} tells apart; {@code MISSING} when nothing is there. */
    public enum FileType { DIRECTORY, FILE, SOCKET, CHAR_DEV, BLOCK_DEV, OTHER, MISSING }

    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFREG = 0100000;

    private HostUtil() {}

    /** Upstream {@code ValidatePathNoBacksteps}: whether a segment of {@code path} is {@code ..}. */
    public static boolean hasBacksteps(String path) {
        for (String segment : path.split("/")) {
            if (segment.equals("..")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Upstream's {@code MakeRShared}: makes sure {@code path} is on a mount with shared propagation, so that a mount made
     * below it in a container's mount namespace ({@code Bidirectional} propagation: a CSI node plugin's) shows on the
     * host and in other containers. When the mount holding it is not shared (a host whose {@code /} is private), the
     * directory is bind-mounted on itself and made rshared, as upstream does; that mount stays after the kubelet stops,
     * and the next start finds it shared.
     *
     * @throws MountException upstream's {@code cannot find mount point for "PATH"}, {@code failed to bind-mount PATH:
     *     ...} or {@code failed to make PATH rshared: ...}
     */
    public static void makeRShared(HostMounts mounts, Path path) throws MountException {
        HostMounts.MountPoint holding = mounts.mountHolding(path)
                .orElseThrow(() -> new MountException("cannot find mount point for \"" + path + "\""));
        if (holding.isShared()) {
            log.debug("Directory {} is already on a shared mount", path);
            return;
        }
        log.info("Bind-mounting \"{}\" with shared mount propagation", path);
        try {
            mounts.bindMount(path, path, List.of());
        } catch (MountException e) {
            throw new MountException("failed to bind-mount " + path + ": " + e.getMessage());
        }
        try {
            mounts.makeRShared(path);
        } catch (MountException e) {
            throw new MountException("failed to make " + path + " rshared: " + e.getMessage());
        }
    }

    public static FileType fileType(Path p) {
        if (!Files.exists(p)) {
            return FileType.MISSING;
        }
        int mode;
        try {
            mode = (Integer) Files.getAttribute(p, "unix:mode") & S_IFMT;
        } catch (IOException | UnsupportedOperationException e) {
            return FileType.OTHER;
        }
        return switch (mode) {
            case S_IFDIR -> FileType.DIRECTORY;
            case S_IFREG -> FileType.FILE;
            case S_IFSOCK -> FileType.SOCKET;
            case S_IFCHR -> FileType.CHAR_DEV;
            case S_IFBLK -> FileType.BLOCK_DEV;
            default -> FileType.OTHER;
        };
    }
}
