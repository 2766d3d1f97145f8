package io.jkubelet.docker;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CRI log path of a container ({@code /var/log/pods/<ns>_<pod>_<uid>/<container>/<n>.log}) as a symlink to
 * Docker's json log file, as dockershim made it: Docker cannot write logs where the kubelet wants them, and
 * log readers (the kubelet's {@code /containerLogs}, node log agents) read the CRI path.
 */
final class ContainerLogLinks {
    private static final Logger log = LoggerFactory.getLogger(ContainerLogLinks.class);

    private ContainerLogLinks() {}

    /**
     * Points {@code criLogPath} at {@code dockerLogPath}, replacing a link left by an earlier container with
     * the same attempt number. Creates missing parent directories, which the core normally made already.
     */
    static void link(String containerId, String criLogPath, String dockerLogPath) {
        if (criLogPath == null || criLogPath.isEmpty()) {
            return; // no log path was asked for
        }
        if (dockerLogPath == null || dockerLogPath.isEmpty()) {
            log.warn("Cannot link log {} of container {}: Docker reports no log file (is the log driver json-file?)",
                    criLogPath, containerId);
            return;
        }
        Path link = Path.of(criLogPath);
        try {
            if (link.getParent() != null) {
                Files.createDirectories(link.getParent());
            }
            if (Files.deleteIfExists(link)) {
                log.warn("Replaced an existing log link {} for container {}", link, containerId);
            }
            Files.createSymbolicLink(link, Path.of(dockerLogPath));
        } catch (IOException e) {
            throw new UncheckedIOException("failed to create symbolic link " + link + " to the log file "
                    + dockerLogPath + " of container " + containerId + ": " + e.getMessage(), e);
        }
    }

    /** Removes the link; Docker deletes the log file itself with the container. */
    static void unlink(String containerId, String criLogPath) {
        if (criLogPath == null || criLogPath.isEmpty()) {
            return;
        }
        try {
            Files.deleteIfExists(Path.of(criLogPath));
        } catch (IOException e) {
            throw new UncheckedIOException("failed to remove log link " + criLogPath + " of container "
                    + containerId + ": " + e.getMessage(), e);
        }
    }
}
