package io.jkubelet.core.config;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the static pod path for changes (upstream {@code file_linux.go}): the directory itself, and its parent so
 * that the directory (or a single manifest file) being created, deleted or replaced is seen. A burst of events is
 * coalesced into one {@code onChange} call. Runs on its own daemon thread until {@link #close()}.
 */
final class StaticPodPathWatch implements Closeable {
    private static final Logger log = LoggerFactory.getLogger(StaticPodPathWatch.class);

    /** How long the watch waits for a burst of events to go quiet before re-reading. */
    static final Duration DEBOUNCE_QUIET = Duration.ofMillis(25);
    /** The longest a burst of events can delay a re-read. */
    static final Duration DEBOUNCE_MAX = Duration.ofSeconds(1);
    /** How often the watch retries when neither the path nor its parent exists. */
    static final Duration WATCH_RETRY = Duration.ofSeconds(1);

    private final Path path;
    /** How long to wait for events before checking the registrations again. */
    private final Duration period;
    private final Runnable onChange;
    private final WatchService watchService;
    private final Thread thread;
    private volatile boolean closed;

    // Confined to the watch's thread.
    private WatchKey dirKey;
    private Object dirIdentity;
    private WatchKey parentKey;

    private StaticPodPathWatch(Path path, Duration period, Runnable onChange) throws IOException {
        this.path = path;
        this.period = period;
        this.onChange = onChange;
        this.watchService = FileSystems.getDefault().newWatchService();
        this.thread = new Thread(this::watchLoop, "static-pod-file-watch");
        thread.setDaemon(true);
    }

    /**
     * Starts watching {@code path}; {@code onChange} is called (on the watch's thread) when its pods may have changed.
     *
     * @throws IOException when the file system offers no watch service
     */
    static StaticPodPathWatch start(Path path, Duration period, Runnable onChange) throws IOException {
        StaticPodPathWatch watch = new StaticPodPathWatch(path, period, onChange);
        watch.thread.start();
        return watch;
    }

    /** Stops the watch and waits (up to 5 s) for its thread to end. */
    @Override
    public void close() {
        closed = true;
        try {
            watchService.close();
        } catch (IOException e) {
            log.debug("Closing the watch service of {}: {}", path, e.toString());
        }
        try {
            thread.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void watchLoop() {
        try {
            while (!closed) {
                boolean complete = ensureWatches();
                WatchKey key = complete
                        ? watchService.poll(period.toMillis(), TimeUnit.MILLISECONDS)
                        : watchService.poll(WATCH_RETRY.toMillis(), TimeUnit.MILLISECONDS);
                if (key == null) {
                    continue;
                }
                boolean relevant = drain(key);
                // Coalesce a burst (an editor's save, a copy of many files) into one re-read.
                long deadline = System.nanoTime() + DEBOUNCE_MAX.toNanos();
                while (System.nanoTime() < deadline) {
                    WatchKey next = watchService.poll(DEBOUNCE_QUIET.toMillis(), TimeUnit.MILLISECONDS);
                    if (next == null) {
                        break;
                    }
                    relevant |= drain(next);
                }
                if (relevant) {
                    onChange.run();
                }
            }
        } catch (ClosedWatchServiceException | InterruptedException e) {
            // closed
        } catch (RuntimeException e) {
            log.error("The watch of static pod path {} failed; reading it every {} only", path, period, e);
        }
    }

    /** Registers what can be watched now; false when something could not be (retry soon). */
    private boolean ensureWatches() {
        boolean complete = true;
        Path parent = path.getParent();
        if (parent != null && (parentKey == null || !parentKey.isValid())) {
            parentKey = register(parent);
            complete = parentKey != null;
        }
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (IOException e) {
            attributes = null;
        }
        if (attributes != null && attributes.isDirectory()) {
            Object identity = attributes.fileKey();
            if (dirKey == null || !dirKey.isValid() || !Objects.equals(identity, dirIdentity)) {
                if (dirKey != null) {
                    dirKey.cancel();
                }
                dirKey = register(path);
                dirIdentity = identity;
                complete &= dirKey != null;
                if (dirKey != null) {
                    // Files may have appeared between the last read and this registration.
                    onChange.run();
                }
            }
        } else if (dirKey != null) {
            dirKey.cancel();
            dirKey = null;
            dirIdentity = null;
        }
        return complete;
    }

    private WatchKey register(Path dir) {
        try {
            return dir.register(watchService, StandardWatchEventKinds.ENTRY_CREATE,
                    StandardWatchEventKinds.ENTRY_DELETE, StandardWatchEventKinds.ENTRY_MODIFY);
        } catch (NoSuchFileException | NotDirectoryException e) {
            return null;
        } catch (IOException e) {
            log.debug("Cannot watch {}: {}", dir, e.toString());
            return null;
        }
    }

    /** Takes the key's events; true when one may change the pods. */
    private boolean drain(WatchKey key) {
        boolean relevant = false;
        for (WatchEvent<?> event : key.pollEvents()) {
            if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
                relevant = true;
                continue;
            }
            Path name = (Path) event.context();
            if (key == dirKey) {
                // Dotfiles are never read, but a manifest may be a link through one (a ConfigMap-style
                // "..data" swap), so every change in the directory earns a re-read.
                relevant = true;
            } else if (key == parentKey) {
                relevant |= name.equals(path.getFileName());
            }
        }
        if (!key.reset()) {
            // The watched directory is gone; the next ensureWatches looks again.
            relevant = true;
        }
        return relevant;
    }
}
