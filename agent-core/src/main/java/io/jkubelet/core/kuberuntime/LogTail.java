package io.jkubelet.core.kuberuntime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tail of a container's log for {@code terminationMessagePolicy: FallbackToLogsOnError}: the last 80
 * lines, at most 2048 bytes (upstream {@code MaxContainerTerminationMessageLogLines}/{@code LogLength}).
 * Reads both the CRI text format and Docker's JSON lines.
 */
final class LogTail {
    static final int MAX_LINES = 80;
    static final int MAX_BYTES = 2048;
    private static final ObjectMapper JSON =
            JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    private LogTail() {}

    static String tail(String logPath) {
        if (logPath == null || logPath.isEmpty()) {
            return "";
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of(logPath), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
        Deque<String> last = new ArrayDeque<>();
        for (String line : lines) {
            last.addLast(message(line));
            if (last.size() > MAX_LINES) {
                last.removeFirst();
            }
        }
        String text = String.join("", last);
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        if (b.length > MAX_BYTES) {
            return new String(b, b.length - MAX_BYTES, MAX_BYTES, StandardCharsets.UTF_8);
        }
        return text;
    }

    private static String message(String line) {
        if (line.startsWith("{")) {
            try {
                JsonNode log = JSON.readTree(line).path("log");
                // Jackson 2's asText(), which this kept: a JSON null reads "null", an object or a list "".
                return log.isNull() ? "null" : log.isContainer() ? "" : log.asString("");
            } catch (JacksonException e) {
                return line + "\n";
            }
        }
        // CRI: <time> <stream> <P|F> <message>
        String[] parts = line.split(" ", 4);
        if (parts.length == 4) {
            return parts[3] + ("P".equals(parts[2]) ? "" : "\n");
        }
        return line + "\n";
    }
}
