package io.jkubelet.core.logs;

import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.RuntimeService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * Upstream's container log manager for CRI runtimes, which only write: every {@code containerLogMonitorInterval} each
 * running container's live log that reached {@code containerLogMaxSize} is renamed to {@code <log>.<timestamp>} and
 * the runtime asked to reopen it ({@code ReopenContainerLog}; on failure the file is renamed back); before that the
 * oldest rotated files are removed so that {@code containerLogMaxFiles} files remain, the live one included, and the
 * others gzipped, so only the newest rotated file is plain.
 */
public final class RotatingContainerLogManager implements ContainerLogManager {
    private static final Logger log = LoggerFactory.getLogger(RotatingContainerLogManager.class);
    /** Upstream's {@code timestampFormat} of rotated files. */
    static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private final RuntimeService runtime;
    private final LogRotatePolicy policy;
    private final Duration interval;
    private final Clock clock;
    private ScheduledExecutorService timer;

    public RotatingContainerLogManager(RuntimeService runtime, LogRotatePolicy policy, Duration interval, Clock clock) {
        this.runtime = runtime;
        this.policy = policy;
        this.interval = interval;
        this.clock = clock;
    }

    @Override
    public synchronized void start() {
        if (!policy.rotates() || timer != null) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("container-log-manager").daemon().factory());
        timer.scheduleWithFixedDelay(this::rotateLogsQuietly, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    private void rotateLogsQuietly() {
        try {
            rotateLogs();
        } catch (RuntimeException e) {
            log.warn("Failed to rotate container logs: {}", e.getMessage());
        }
    }

    /** One pass over the running containers (upstream {@code rotateLogs}). */
    public void rotateLogs() {
        for (Container c : runtime.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null))) {
            String logPath;
            try {
                logPath = runtime.containerStatus(c.id()).logPath();
            } catch (RuntimeException e) {
                continue; // removed since it was listed
            }
            if (logPath == null || logPath.isEmpty()) {
                continue;
            }
            try {
                Path live = Path.of(logPath);
                if (Files.exists(live) && Files.size(live) >= policy.maxSize()) {
                    rotate(c.id(), live);
                }
            } catch (IOException | RuntimeException e) {
                log.warn("Failed to rotate log {} of container {}: {}", logPath, c.id(), e.getMessage());
            }
        }
    }

    private void rotate(String containerId, Path live) throws IOException {
        // As upstream: the excess goes first, then every file kept is compressed; the one rotated now stays plain.
        removeExcess(rotatedFiles(live));
        compress(rotatedFiles(live));
        Path target = live.resolveSibling(live.getFileName() + "." + TIMESTAMP.format(clock.instant()));
        Files.move(live, target, StandardCopyOption.ATOMIC_MOVE);
        try {
            runtime.reopenContainerLog(containerId);
        } catch (RuntimeException e) {
            // The runtime still writes to the moved file: put it back, as upstream does.
            Files.move(target, live, StandardCopyOption.ATOMIC_MOVE);
            throw e;
        }
    }

    /** {@code <log>.<timestamp>} and {@code <log>.<timestamp>.gz}, oldest first (the timestamps sort as text). */
    static List<Path> rotatedFiles(Path live) throws IOException {
        String prefix = live.getFileName() + ".";
        try (Stream<Path> files = Files.list(live.getParent())) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)
                            && !f.getFileName().toString().endsWith(".tmp"))
                    .sorted().toList();
        }
    }

    private static void compress(List<Path> rotated) throws IOException {
        for (Path f : rotated) {
            if (f.getFileName().toString().endsWith(".gz")) {
                continue;
            }
            Path tmp = f.resolveSibling(f.getFileName() + ".gz.tmp");
            try (InputStream in = Files.newInputStream(f); OutputStream out = new GZIPOutputStream(Files.newOutputStream(tmp))) {
                in.transferTo(out);
            }
            Files.move(tmp, f.resolveSibling(f.getFileName() + ".gz"), StandardCopyOption.ATOMIC_MOVE);
            Files.delete(f);
        }
    }

    /** Keeps {@code maxFiles - 2} rotated files: with the one about to be made and the live one, {@code maxFiles}. */
    private void removeExcess(List<Path> rotated) throws IOException {
        List<Path> excess = new ArrayList<>(rotated.subList(0, Math.max(0, rotated.size() - (policy.maxFiles() - 2))));
        for (Path f : excess) {
            Files.deleteIfExists(f);
        }
    }
}
