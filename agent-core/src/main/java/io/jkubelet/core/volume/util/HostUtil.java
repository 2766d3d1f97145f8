package io.jkubelet.core.volume.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Upstream's {@code hostutil}: what kind of file a host path is, following links as {@code stat(2)}. */
public final class HostUtil {
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
