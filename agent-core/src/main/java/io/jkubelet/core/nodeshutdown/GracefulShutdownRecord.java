package io.jkubelet.core.nodeshutdown;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * When the node's last graceful shutdown started and ended (upstream's {@code localStorage} and {@code setMetrics}):
 * kept in {@code <root-dir>/graceful_node_shutdown_state} as upstream's JSON, so that after the reboot the kubelet still
 * reports it as {@code kubelet_graceful_shutdown_start_time_seconds} and {@code _end_time_seconds}. Thread-safe.
 */
public final class GracefulShutdownRecord {
    private static final Logger log = LoggerFactory.getLogger(GracefulShutdownRecord.class);
    private static final ObjectMapper JSON =
            JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    /** Upstream's file name, in the kubelet's root directory. */
    public static final String STATE_FILE = "graceful_node_shutdown_state";
    /** Go's zero {@code time.Time} as its JSON encoder writes it: a time never set. */
    static final String GO_ZERO_TIME = "0001-01-01T00:00:00Z";
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

    /** The two gauges (upstream {@code metrics.GracefulShutdownStartTime}, {@code GracefulShutdownEndTime}). */
    public interface Gauges {
        void startTime(double secondsSinceEpoch);

        void endTime(double secondsSinceEpoch);
    }

    /** Nothing recorded (upstream records only with {@code GracefulNodeShutdownBasedOnPodPriority}). */
    public static final GracefulShutdownRecord NONE = new GracefulShutdownRecord(null, Clock.systemUTC(), null);

    private final Path file;
    private final Clock clock;
    private final Gauges gauges;
    private Instant started;

    public GracefulShutdownRecord(Path file, Clock clock, Gauges gauges) {
        this.file = file;
        this.clock = clock;
        this.gauges = gauges;
    }

    /** At start: the gauges show the last shutdown the file kept (upstream {@code setMetrics}). */
    public synchronized void restore() {
        if (file == null) {
            return;
        }
        try {
            JsonNode state = JSON.readTree(Files.readString(file));
            parse(text(state.path("startTime"))).ifPresent(t -> gauges.startTime(seconds(t)));
            parse(text(state.path("endTime"))).ifPresent(t -> gauges.endTime(seconds(t)));
        } catch (NoSuchFileException e) {
            // no shutdown yet
        } catch (IOException | RuntimeException e) {
            log.error("Failed to load graceful shutdown state: {}", e.getMessage());
        }
    }

    /** A field's text, as Jackson 2's {@code asText(default)} gave it: an object or a list reads as "". */
    private static String text(JsonNode field) {
        return field.isContainer() ? "" : field.asString(GO_ZERO_TIME);
    }

    /** A shutdown begins: stored with no end yet; the end gauge goes back to 0. */
    public synchronized void started() {
        if (file == null) {
            return;
        }
        started = clock.instant();
        store(started, null);
        gauges.startTime(seconds(started));
        gauges.endTime(0);
    }

    /** The pods are stopped. */
    public synchronized void ended() {
        if (file == null || started == null) {
            return;
        }
        Instant end = clock.instant();
        store(started, end);
        gauges.endTime(seconds(end));
    }

    private void store(Instant start, Instant end) {
        String json = "{\"startTime\":\"" + format(start) + "\",\"endTime\":\"" + (end == null ? GO_ZERO_TIME : format(end)) + "\"}";
        try {
            Path tmp = file.resolveSibling("." + STATE_FILE + ".tmp");
            Files.writeString(tmp, json);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.error("Failed to store graceful shutdown state: {}", e.getMessage());
        }
    }

    /** Go's RFC 3339 with nanoseconds, trailing zeros of the fraction dropped (as {@code time.Time}'s JSON). */
    static String format(Instant t) {
        String fraction = t.getNano() == 0 ? "" : ("." + String.format("%09d", t.getNano())).replaceAll("0+$", "");
        return SECONDS.format(t) + fraction + "Z";
    }

    private static Optional<Instant> parse(String text) {
        return text.equals(GO_ZERO_TIME) ? Optional.empty() : Optional.of(Instant.parse(text));
    }

    private static double seconds(Instant t) {
        return t.getEpochSecond() + t.getNano() / 1e9;
    }
}
