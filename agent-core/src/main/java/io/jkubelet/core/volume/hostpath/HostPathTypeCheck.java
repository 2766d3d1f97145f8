package io.jkubelet.core.volume.hostpath;

import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.util.HostUtil;
import io.jkubelet.core.volume.util.HostUtil.FileType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A hostPath's {@code type} checked, and made where the type says so (upstream {@code checkType}): {@code ""} checks
 * nothing; {@code DirectoryOrCreate} makes a 0755 directory and {@code FileOrCreate} an empty 0644 file (with its
 * parent directories) when nothing is there; the others must find what they name.
 */
final class HostPathTypeCheck {
    private HostPathTypeCheck() {}

    static void check(Path p, String type) throws VolumeException {
        String failed = "hostPath type check failed: " + p + " ";
        try {
            switch (type) {
                case "" -> { }
                case "DirectoryOrCreate" -> {
                    if (!Files.exists(p)) {
                        Files.createDirectories(p);
                        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
                    } else if (!Files.isDirectory(p)) {
                        throw new VolumeException(failed + "is not a directory");
                    }
                }
                case "Directory" -> {
                    if (!Files.isDirectory(p)) {
                        throw new VolumeException(failed + "is not a directory");
                    }
                }
                case "FileOrCreate" -> {
                    if (!Files.exists(p)) {
                        Files.createDirectories(p.getParent());
                        Files.createFile(p);
                        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
                    } else if (!Files.isRegularFile(p)) {
                        throw new VolumeException(failed + "is not a file");
                    }
                }
                case "File" -> {
                    if (!Files.isRegularFile(p)) {
                        throw new VolumeException(failed + "is not a file");
                    }
                }
                case "Socket" -> expect(p, FileType.SOCKET, failed + "is not a socket file");
                case "CharDevice" -> expect(p, FileType.CHAR_DEV, failed + "is not a character device");
                case "BlockDevice" -> expect(p, FileType.BLOCK_DEV, failed + "is not a block device");
                // The apiserver refuses any other type; a static pod's may still say one.
                default -> throw new VolumeException("unknown hostPath type \"" + type + "\"");
            }
        } catch (IOException e) {
            throw new VolumeException(failed + e.getMessage());
        }
    }

    private static void expect(Path p, FileType type, String message) throws VolumeException {
        if (HostUtil.fileType(p) != type) {
            throw new VolumeException(message);
        }
    }
}
