package io.jkubelet.server.logs;

import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The two container log file formats the kubelet reads (upstream {@code kuberuntime/logs}): the CRI text
 * format that containerd and CRI-O write, and the JSON lines of Docker's {@code json-file} driver, which the
 * pod log paths of this agent point at. Thread-safe.
 */
enum LogFormat {

    /**
     * {@code 2016-10-06T00:17:09.669794202Z stdout P log content 1}: time, stream, tags ({@code P} partial or
     * {@code F} full, more tags after {@code :}), then the content; a full line keeps its newline, a partial
     * one loses it so that the parts join up.
     */
    CRI {
        @Override
        LogMessage parse(byte[] line) throws LogParseException {
            int t = indexOf(line, ' ', 0);
            if (t < 0) {
                throw new LogParseException("timestamp is not found");
            }
            OffsetDateTime time = parseTime(new String(line, 0, t, StandardCharsets.US_ASCII));
            int s = indexOf(line, ' ', t + 1);
            if (s < 0) {
                throw new LogParseException("stream type is not found");
            }
            String stream = new String(line, t + 1, s - t - 1, StandardCharsets.US_ASCII);
            if (!stream.equals(STDOUT) && !stream.equals(STDERR)) {
                throw new LogParseException("unexpected stream type \"" + stream + "\"");
            }
            int g = indexOf(line, ' ', s + 1);
            if (g < 0) {
                throw new LogParseException("log tag is not found");
            }
            String tags = new String(line, s + 1, g - s - 1, StandardCharsets.US_ASCII);
            boolean partial = tags.split(":", -1)[0].equals("P");
            int end = line.length;
            if (partial && end > 0 && line[end - 1] == '\n') {
                end--;
            }
            return new LogMessage(time, stream, Arrays.copyOfRange(line, Math.min(g + 1, end), end));
        }
    },

    /** {@code {"log":"content 1\n","stream":"stdout","time":"2016-10-20T18:39:20.57606443Z"}}. */
    DOCKER_JSON {
        @Override
        LogMessage parse(byte[] line) throws LogParseException {
            JsonNode node;
            try {
                node = JSON.readTree(line);
            } catch (JacksonException e) {
                throw new LogParseException("failed to unmarshal log: " + e.getMessage());
            }
            if (node == null || !node.isObject()) {
                throw new LogParseException("not a JSON log object");
            }
            JsonNode time = node.get("time");
            if (time == null || !time.isString()) {
                throw new LogParseException("no time in JSON log line");
            }
            return new LogMessage(parseTime(time.stringValue()), text(node.path("stream")),
                    text(node.path("log")).getBytes(StandardCharsets.UTF_8));
        }
    };

    static final String STDOUT = "stdout";
    static final String STDERR = "stderr";

    /** Lenient as Jackson 2 was: what follows the first JSON value on a line is ignored. */
    private static final ObjectMapper JSON =
            JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    /** A field's text as Jackson 2's {@code asText("")} gave it: an object or a list reads as "". */
    private static String text(JsonNode field) {
        return field.isContainer() ? "" : field.asString("");
    }

    /** Go's {@code RFC3339NanoFixed}: always nine fraction digits, {@code Z} for UTC. */
    static final DateTimeFormatter TIME_OUT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSSXXX");

    /** One line, parsed. */
    record LogMessage(OffsetDateTime timestamp, String stream, byte[] log) {}

    /** A line that is not in this format. */
    static final class LogParseException extends Exception {
        LogParseException(String message) {
            super(message);
        }
    }

    abstract LogMessage parse(byte[] line) throws LogParseException;

    /** The format of a log, judged from its first line, as upstream's {@code getParseFunc}: CRI first. */
    static LogFormat detect(byte[] line) throws LogParseException {
        for (LogFormat f : values()) {
            try {
                f.parse(line);
                return f;
            } catch (LogParseException e) {
                // try the next
            }
        }
        throw new LogParseException("unsupported log format: " + goQuote(line));
    }

    private static OffsetDateTime parseTime(String text) throws LogParseException {
        try {
            return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        } catch (DateTimeParseException e) {
            throw new LogParseException("unexpected timestamp format \"" + text + "\"");
        }
    }

    private static int indexOf(byte[] b, char c, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private static String goQuote(byte[] line) {
        return ContainerLogStatus.quote(new String(line, StandardCharsets.UTF_8));
    }
}
