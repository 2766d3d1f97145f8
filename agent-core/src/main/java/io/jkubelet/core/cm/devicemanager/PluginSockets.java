package io.jkubelet.core.cm.devicemanager;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The sockets of the device plugin directory. */
final class PluginSockets {
    private static final Logger log = LoggerFactory.getLogger(PluginSockets.class);
    /** {@code S_IFMT} and {@code S_IFSOCK} of a file's mode. */
    private static final int TYPE_MASK = 0170000;
    private static final int SOCKET = 0140000;

    private PluginSockets() {}

    /**
     * Removes every socket in {@code dir} (upstream {@code CleanupPluginDirectory}): the plugins of the kubelet's last
     * run see theirs go and register again; other files (the checkpoint, {@code DEPRECATION}) and directories stay.
     *
     * @throws IOException the first removal that failed, after trying them all
     */
    static void removeAll(Path dir) throws IOException {
        IOException first = null;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                if (!isSocket(f)) {
                    continue;
                }
                try {
                    Files.deleteIfExists(f);
                } catch (IOException e) {
                    log.error("Failed to remove file {}: {}", f, e.getMessage());
                    first = first == null ? e : first;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    static boolean isSocket(Path f) {
        try {
            int mode = (Integer) Files.getAttribute(f, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            return (mode & TYPE_MASK) == SOCKET;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }
}
