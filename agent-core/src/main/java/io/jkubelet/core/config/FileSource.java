package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.util.DaemonThreads;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Static pods from {@code staticPodPath} ({@code pkg/kubelet/config/file.go}, {@code file_linux.go}).
 *
 * <p>The path is a directory or a single file. In a directory, every entry whose name does not start
 * with {@code .} is read, in name order, without recursing; each must hold one Pod in YAML or JSON.
 * A file that cannot be used is skipped with one log line naming it and saying why (logged again only
 * when its content changes); the other files' pods are unaffected. A single file that cannot be used
 * leaves the last good state in place. A path that does not exist is an empty source.
 *
 * <p>The source sends a {@link PodOperation#SET} with all its pods first, then whenever they change.
 * It re-reads the path every {@code fileCheckFrequency}, and within about a second of a change it
 * sees through the file system's watch service (inotify), bursts of events being coalesced; it
 * copes with the directory being created, deleted or replaced later.
 *
 * <p>Lifecycle: {@link #start()} once, {@link #close()} to stop; close is idempotent. Reads run on
 * one thread, so they never overlap.
 */
public final class FileSource implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(FileSource.class);

    private final Path path;
    private final String nodeName;
    private final Duration period;
    private final PodUpdateSink sink;
    private final ScheduledExecutorService executor;
    private final boolean ownsExecutor;

    private final AtomicBoolean rescanPending = new AtomicBoolean();
    private final Object lifecycle = new Object();
    private boolean started;
    private volatile boolean closed;
    private ScheduledFuture<?> periodic;
    private StaticPodPathWatch watch;

    // Guarded by "this": the state of reads.
    private List<Pod> lastSent;
    /** What was last reported per path, so a problem is logged once until it changes. */
    private final Map<Path, String> reported = new HashMap<>();
    /** The pods of the manifests as last decoded, so that an unchanged one is not decoded again. */
    private final DecodedManifests decoded = new DecodedManifests();

    /**
     * @param staticPodPath      the directory or file to read
     * @param nodeName           the node's name (pod names get it as a suffix)
     * @param fileCheckFrequency how often to re-read regardless of watch events
     * @param sink               where the snapshots go, usually {@code podConfig.channel(PodSources.FILE)}
     */
    public FileSource(Path staticPodPath, String nodeName, Duration fileCheckFrequency, PodUpdateSink sink) {
        this(staticPodPath, nodeName, fileCheckFrequency, sink, null);
    }

    /**
     * As above, reading on {@code executor} (a single-threaded one, or reads could overlap). The
     * caller keeps ownership of an executor it passes; with {@code null}, the source makes its own.
     */
    public FileSource(Path staticPodPath, String nodeName, Duration fileCheckFrequency, PodUpdateSink sink,
            ScheduledExecutorService executor) {
        this.path = staticPodPath.toAbsolutePath().normalize();
        this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
        if (fileCheckFrequency.isNegative() || fileCheckFrequency.isZero()) {
            throw new IllegalArgumentException("fileCheckFrequency must be positive, got " + fileCheckFrequency);
        }
        this.period = fileCheckFrequency;
        this.sink = Objects.requireNonNull(sink, "sink");
        this.ownsExecutor = executor == null;
        this.executor = executor != null ? executor : DaemonThreads.scheduler("static-pod-file-source");
    }

    /** Reads the path now, then re-reads it periodically and on changes. */
    public void start() {
        synchronized (lifecycle) {
            if (closed || started) {
                throw new IllegalStateException(closed ? "the file source is closed" : "the file source is started");
            }
            started = true;
            log.info("Watching static pod path {}", path);
            periodic = executor.scheduleWithFixedDelay(this::listConfigSafely, 0, period.toMillis(),
                    TimeUnit.MILLISECONDS);
            try {
                watch = StaticPodPathWatch.start(path, period, this::requestRescan);
            } catch (IOException | UnsupportedOperationException e) {
                log.warn("Cannot watch static pod path {} for changes ({}); reading it every {} only", path,
                        e.getMessage(), period);
            }
        }
    }

    @Override
    public void close() {
        StaticPodPathWatch toClose;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            if (periodic != null) {
                periodic.cancel(true);
            }
            if (ownsExecutor) {
                executor.shutdownNow();
            }
            toClose = watch;
        }
        // Outside the lock: the watch's thread may be handing in a re-read request.
        if (toClose != null) {
            toClose.close();
        }
    }

    /** A periodic read that throws would end the schedule for good: nothing may leave it. */
    private void listConfigSafely() {
        try {
            listConfig();
        } catch (RuntimeException | Error e) {
            log.error("Unexpected failure reading static pod path {}", path, e);
        }
    }

    /**
     * Reads the path and sends a SET when its pods differ from the last ones sent (the first read
     * always sends). Safe to call from any thread; calls are serialised.
     */
    synchronized void listConfig() {
        if (closed) {
            return;
        }
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            reportOnce(path, "missing", "Static pod path " + path + " does not exist, ignoring");
            send(List.of());
            return;
        } catch (IOException e) {
            reportOnce(path, "io:" + e, "Unable to read static pod path " + path + ": " + e);
            return;
        }
        if (attributes.isDirectory()) {
            reported.remove(path);
            send(extractFromDir());
        } else if (attributes.isRegularFile()) {
            reported.keySet().removeIf(p -> !p.equals(path));
            decoded.retainOnly(List.of(path));
            ManifestRead read = extractFromFile(path);
            if (read.pod() != null) {
                reported.remove(path);
                send(List.of(read.pod()));
            } else if (read.problem() != null) {
                // Upstream keeps what runs when the one manifest it has cannot be used.
                reportOnce(path, read.fingerprint(), read.problem());
            }
        } else {
            reportOnce(path, "type", "Static pod path " + path + " is not a directory or file, ignoring");
        }
    }

    private List<Pod> extractFromDir() {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(path)) {
            for (Path entry : dir) {
                if (!entry.getFileName().toString().startsWith(".")) {
                    entries.add(entry);
                }
            }
        } catch (IOException e) {
            log.warn("Cannot list static pod directory {}: {}", path, e.toString());
            return lastSent == null ? List.of() : lastSent;
        }
        entries.sort(null);
        decoded.retainOnly(entries);
        reported.keySet().removeIf(p -> !p.equals(path) && !entries.contains(p));

        List<Pod> pods = new ArrayList<>();
        for (Path entry : entries) {
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(entry, BasicFileAttributes.class);
            } catch (NoSuchFileException e) {
                continue;
            } catch (IOException e) {
                reportOnce(entry, "io:" + e, "Could not get metadata of " + entry + ": " + e);
                continue;
            }
            if (attributes.isDirectory()) {
                reportOnce(entry, "dir", entry + ": is a directory; not recursing into it");
            } else if (attributes.isRegularFile()) {
                ManifestRead read = extractFromFile(entry);
                if (read.pod() != null) {
                    reported.remove(entry);
                    pods.add(read.pod());
                } else if (read.problem() != null) {
                    reportOnce(entry, read.fingerprint(), read.problem());
                }
            } else {
                reportOnce(entry, "type", entry + ": is not a directory or regular file; ignoring it");
            }
        }
        return pods;
    }

    /** A pod, or what is wrong (with a fingerprint of the content), or neither when the file vanished. */
    private record ManifestRead(Pod pod, String problem, String fingerprint) {
    }

    private ManifestRead extractFromFile(Path file) {
        byte[] data;
        try {
            long size = Files.size(file);
            if (size > PodCodec.MAX_MANIFEST_BYTES) {
                return new ManifestRead(null, file + ": is " + size + " bytes, larger than the "
                        + PodCodec.MAX_MANIFEST_SIZE + " a manifest may have", "size:" + size);
            }
            data = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new ManifestRead(null, null, null);
        } catch (IOException e) {
            return new ManifestRead(null, file + ": cannot be read: " + e, "io:" + e);
        }
        Optional<Pod> unchanged = decoded.unchanged(file, data);
        if (unchanged.isPresent()) {
            return new ManifestRead(unchanged.get(), null, null);
        }
        decoded.forget(file);
        StaticPodDefaults defaults = StaticPodDefaults.forFile(nodeName, file.toString());
        DecodeResult<Pod> result;
        try {
            result = StaticPodDecoder.tryDecodeSinglePod(data, defaults);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            // Whatever goes wrong decoding one file costs only that file, never the other files or the source's thread.
            return new ManifestRead(null, file + ": cannot be decoded within the agent's resources (" + e + ")",
                    sha256(data));
        }
        return switch (result) {
            case DecodeResult.Decoded<Pod> pod -> {
                decoded.remember(file, data, pod.value());
                yield new ManifestRead(pod.value(), null, null);
            }
            case DecodeResult.Invalid<Pod> invalid -> new ManifestRead(null, invalid.errors().stream()
                    .map(error -> file + ": " + error).collect(Collectors.joining("; ")), sha256(data));
            case DecodeResult.NotParsed<Pod> notParsed -> new ManifestRead(null, file + ": couldn't parse as pod ("
                    + notParsed.reason() + "), please check config file", sha256(data));
        };
    }

    private void reportOnce(Path about, String fingerprint, String message) {
        if (!fingerprint.equals(reported.put(about, fingerprint))) {
            log.warn("Could not process static pod manifest: {}", message);
        }
    }

    private void send(List<Pod> pods) {
        if (lastSent != null && lastSent.equals(pods)) {
            return;
        }
        log.debug("Static pod path {} has {} pod(s)", path, pods.size());
        lastSent = List.copyOf(pods);
        sink.send(PodUpdate.set(PodSources.FILE, pods));
    }

    /** Asks for a re-read soon; requests made while one is pending join it. */
    private void requestRescan() {
        if (closed || !rescanPending.compareAndSet(false, true)) {
            return;
        }
        try {
            executor.execute(() -> {
                rescanPending.set(false);
                listConfigSafely();
            });
        } catch (RejectedExecutionException e) {
            rescanPending.set(false);
        }
    }

    private static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
    }
}
