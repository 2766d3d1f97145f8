package io.jkubelet.server.logs;

import io.jkubelet.server.http.ResponseStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies a container's log file to a response as the kubelet's {@code ReadLogs} does: the file may be in
 * the CRI format or Docker's JSON lines (judged from its first line); {@code tail} starts that many lines
 * before the end (found from the end, not by reading the whole file), {@code since} skips older lines,
 * {@code timestamps} prefixes each line with its time, {@code limitBytes} cuts the output, and {@code
 * follow} keeps reading as the file grows until the container stops running (then the rest of the file is
 * sent and the stream ends) or the client goes away. A line that does not parse is skipped.
 *
 * <p>A log is the live file and the files the runtime rotated away ({@link RotatedLogFiles}, Docker's
 * {@code <id>-json.log.1} ...): all are read, oldest first, and {@code tail} counts lines across them. Following
 * polls the live file every {@link #pollInterval} (upstream waits on inotify, and checks at least every second);
 * when it was rotated, the file being read is read to its end and then the files that came after it, so that a
 * follower loses no line the runtime kept.
 */
public final class ContainerLogReader {

    private static final Logger log = LoggerFactory.getLogger(ContainerLogReader.class);

    /** Upstream's {@code logForceCheckPeriod}: how long a follower waits before looking again. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

    /**
     * What to read (upstream's internal {@code LogOptions}).
     *
     * @param tail lines from the end; negative for all
     * @param bytes most bytes to write; negative for no limit
     * @param since skip lines older than this; null for none
     */
    public record Options(long tail, long bytes, Instant since, boolean follow, boolean timestamps) {

        /** From the request's options at {@code now}. */
        public static Options of(PodLogOptions o, Instant now) {
            return new Options(o.tailLines() == null ? -1 : o.tailLines(), o.limitBytes() == null ? -1 : o.limitBytes(),
                    o.since(now), o.follow(), o.timestamps());
        }
    }

    /** Whether the container still runs; asked before a follower waits for more. */
    @FunctionalInterface
    public interface RunningCheck {
        boolean running() throws Exception;
    }

    /** Reading failed; the message is the kubelet's and goes to the client. */
    public static final class ReadException extends Exception {
        public ReadException(String message) {
            super(message);
        }
    }

    private final Duration pollInterval;

    public ContainerLogReader(Duration pollInterval) {
        this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
    }

    /**
     * Writes the log at {@code path} to {@code out} under {@code options}.
     *
     * @throws ReadException when the file cannot be opened or read, or its format is unknown
     * @throws ResponseStream.ClientGoneException when the client went away
     */
    public void read(Path path, Options options, RunningCheck running, ResponseStream out)
            throws ReadException, IOException, InterruptedException {
        Path real;
        try {
            // Pod log paths are symlinks to the runtime's files; follow the file itself, as upstream does.
            real = RotatedLogFiles.resolve(path);
        } catch (IOException e) {
            throw new ReadException("failed to try resolving symlinks in path " + ContainerLogStatus.quote(path.toString())
                    + ": " + describe(e));
        }
        List<RotatedLogFiles.LogFile> files;
        try {
            files = RotatedLogFiles.open(real);
        } catch (IOException e) {
            throw new ReadException("failed to open log file " + ContainerLogStatus.quote(real.toString()) + ": " + describe(e));
        }
        LogLines lines;
        try {
            lines = LogLines.fromTail(real, files, options.tail());
        } catch (IOException e) {
            throw new ReadException("failed to tail " + options.tail() + " lines of log file "
                    + ContainerLogStatus.quote(real.toString()) + ": " + describe(e));
        }
        try (lines) {
            copy(real, lines, options, running, out);
        }
    }

    private void copy(Path real, LogLines lines, Options options, RunningCheck running, ResponseStream out)
            throws ReadException, IOException, InterruptedException {
        LineWriter writer = new LineWriter(options, out);
        boolean limited = options.tail() >= 0 && !options.follow();
        long left = options.tail();
        LogFormat format = null;
        boolean stillRunning = true;
        boolean stop = false;
        while (!stop && !(limited && left == 0)) {
            byte[] line;
            try {
                line = lines.next();
            } catch (IOException e) {
                throw new ReadException("failed to read log file " + ContainerLogStatus.quote(real.toString()) + ": " + describe(e));
            }
            if (line == null) {
                if (options.follow()) {
                    if (lines.rotated()) {
                        continue; // more to read from the files the rotation left
                    }
                    if (!stillRunning) {
                        return; // the container had stopped, and everything it wrote is sent
                    }
                    out.flush();
                    stillRunning = isRunning(running);
                    if (stillRunning && out.awaitClientGone(pollInterval)) {
                        throw new ResponseStream.ClientGoneException("the client closed the connection");
                    }
                    continue;
                }
                stop = true;
                line = lines.takeUnfinished();
                if (line.length == 0) {
                    continue;
                }
                log.debug("Incomplete line in log file {}", real);
            }
            if (format == null) {
                try {
                    format = LogFormat.detect(line);
                } catch (LogFormat.LogParseException e) {
                    throw new ReadException("failed to get parse function: " + e.getMessage());
                }
            }
            LogFormat.LogMessage msg;
            try {
                msg = format.parse(line);
            } catch (LogFormat.LogParseException e) {
                log.debug("Failed when parsing line in log file {}: {}", real, e.getMessage());
                continue;
            }
            if (!writer.write(msg)) {
                return; // limitBytes reached
            }
            if (limited) {
                left--;
            }
        }
    }

    private static boolean isRunning(RunningCheck running) {
        try {
            return running.running();
        } catch (Exception e) {
            // Upstream: a container the runtime no longer knows is not running; the stream ends.
            log.debug("Cannot tell whether the container still runs: {}", e.toString());
            return false;
        }
    }

    private static String describe(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** Upstream's {@code logWriter}: since, timestamps, the byte limit. */
    private static final class LineWriter {
        private final Options options;
        private final ResponseStream out;
        private long remain;

        LineWriter(Options options, ResponseStream out) {
            this.options = options;
            this.out = out;
            this.remain = options.bytes() >= 0 ? options.bytes() : Long.MAX_VALUE;
        }

        /** Writes one message; false once the byte limit is reached. */
        boolean write(LogFormat.LogMessage msg) throws IOException, ReadException {
            if (options.since() != null && msg.timestamp().toInstant().isBefore(options.since())) {
                return true;
            }
            if (!msg.stream().equals(LogFormat.STDOUT) && !msg.stream().equals(LogFormat.STDERR)) {
                throw new ReadException("unexpected stream type " + ContainerLogStatus.quote(msg.stream()));
            }
            byte[] line = msg.log();
            if (options.timestamps()) {
                byte[] prefix = (LogFormat.TIME_OUT.format(msg.timestamp()) + " ").getBytes(StandardCharsets.US_ASCII);
                byte[] joined = new byte[prefix.length + line.length];
                System.arraycopy(prefix, 0, joined, 0, prefix.length);
                System.arraycopy(line, 0, joined, prefix.length, line.length);
                line = joined;
            }
            int n = (int) Math.min(line.length, remain);
            out.write(line, 0, n);
            remain -= n;
            return remain > 0;
        }
    }
}
