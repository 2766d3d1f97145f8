package io.jkubelet.core.volume.emptydir;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Upstream volume util's {@code IsReady}/{@code SetReady}: a regular file {@code ready} in a volume's meta directory says
 * that its set-up finished once, so that setting it up again (after a kubelet restart) leaves what the pod made in it,
 * and the ownership it was given, as they are.
 */
final class ReadyFile {
    private static final Logger log = LoggerFactory.getLogger(ReadyFile.class);
    private static final String NAME = "ready";

    private ReadyFile() {}

    static boolean isReady(Path dir) {
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
    static void setReady(Path dir) {
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
}
