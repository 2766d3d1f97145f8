package io.jkubelet.core.volume.util;

import io.jkubelet.core.volume.VolumeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Upstream volume util's {@code IsReady}/{@code SetReady}: a regular file {@code ready} in a volume's meta directory says
 * that its set-up finished once, so that setting it up again (after a kubelet restart) leaves what the pod made in it,
 * and the ownership it was given, as they are (emptyDir), or does not clone its repository again (gitRepo).
 */
public final class ReadyFile {
    private static final Logger log = LoggerFactory.getLogger(ReadyFile.class);
    private static final String NAME = "ready";

    private ReadyFile() {}

    public static boolean isReady(Path dir) {
        Path file = dir.resolve(NAME);
        if (!Files.exists(file)) {
            return false;
        }
        if (!Files.isRegularFile(file)) {
            log.error("ready-file is not a file: {}", file);
            return false;
        }
        return true;
    }

    /** Makes {@code dir} (0750) and the file in it; a failure is logged (the next set-up does the work again). */
    public static void setReady(Path dir) {
        try {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-x---")));
        } catch (IOException e) {
            log.error("Can't mkdir {}: {}", dir, e.toString());
            return;
        }
        try {
            Files.newOutputStream(dir.resolve(NAME)).close();
        } catch (IOException e) {
            log.error("Can't touch {}: {}", dir.resolve(NAME), e.toString());
        }
    }

    /** Removes {@code dir} and the file in it (a teardown's first step), nothing when it is not there. */
    public static void remove(Path dir) throws VolumeException {
        try {
            RemoveAll.oneFilesystem(dir);
        } catch (IOException e) {
            throw new VolumeException("failed to remove ready dir [" + dir + "]: " + e.getMessage());
        }
    }
}
