package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.volume.util.RemoveAll;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The logs container GC removes (upstream {@code evictPodLogsDirectories}): the log directory of each pod that is
 * gone for good, and each legacy {@code /var/log/containers} link whose container was removed (its target, the
 * container's log, went with the container). Thread-safe.
 */
final class PodLogsGc {
    private static final Logger log = LoggerFactory.getLogger(PodLogsGc.class);
    /** A container id in a legacy link's name ({@code <pod>_<ns>_<container>-<id>.log}) has 64 hex digits. */
    private static final int CONTAINER_ID_LENGTH = 64;

    private final Path podLogsDir;
    private final Path containerLogsDir;
    private final RuntimeService runtime;

    PodLogsGc(Path podLogsDir, Path containerLogsDir, RuntimeService runtime) {
        this.podLogsDir = podLogsDir;
        this.containerLogsDir = containerLogsDir;
        this.runtime = runtime;
    }

    /**
     * Removes {@code <podLogsDir>/<namespace>_<name>_<uid>} of every pod whose content may go. Only once every
     * source has reported: before that a pod of a late source would look gone.
     */
    void evictPodLogDirectories(Predicate<String> podContentRemovable) {
        for (Path dir : list(podLogsDir)) {
            String name = dir.getFileName().toString();
            String uid = name.substring(name.lastIndexOf('_') + 1);
            if (!Files.isDirectory(dir) || !podContentRemovable.test(uid)) {
                continue;
            }
            try {
                RemoveAll.oneFilesystem(dir);
            } catch (IOException e) {
                log.warn("Failed to remove pod logs directory {}: {}", dir, e.getMessage());
            }
        }
    }

    /**
     * Removes the legacy links that point nowhere and whose container is exited or gone; a dangling link of a
     * container that still runs is left.
     *
     * @param listed the states of the containers container GC listed and kept; others are asked of the runtime
     */
    void removeDanglingLegacyLinks(Map<String, ContainerState> listed) {
        for (Path link : list(containerLogsDir)) {
            String name = link.getFileName().toString();
            if (!name.endsWith(".log") || !Files.isSymbolicLink(link) || Files.exists(link)) {
                continue;
            }
            String id = name.substring(name.lastIndexOf('-') + 1, name.length() - ".log".length());
            if (id.length() != CONTAINER_ID_LENGTH || !containerGone(id, listed)) {
                continue;
            }
            try {
                Files.deleteIfExists(link);
            } catch (IOException e) {
                log.warn("Failed to remove dangling log link {}: {}", link, e.getMessage());
            }
        }
    }

    private boolean containerGone(String id, Map<String, ContainerState> listed) {
        ContainerState state = listed.get(id);
        if (state == null) {
            try {
                state = runtime.containerStatus(id).state();
            } catch (NotFoundException e) {
                return true;
            } catch (RuntimeException e) {
                log.debug("Cannot read the status of container {} of a dangling log link: {}", id, e.getMessage());
                return false;
            }
        }
        return state == ContainerState.CONTAINER_EXITED;
    }

    private static List<Path> list(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        } catch (IOException e) {
            log.warn("Cannot list {}: {}", dir, e.getMessage());
            return List.of();
        }
    }
}
