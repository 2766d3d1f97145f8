package io.jkubelet.docker.engine;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The status line and headers of an HTTP/1.1 answer.
 *
 * @param headers by name, case-insensitively, each with its values in the order sent
 */
record ResponseHead(String version, int status, String reason, Map<String, List<String>> headers) {
    /** More than this before the blank line is no answer dockerd gives: a protocol error, not a long wait. */
    static final int MAX_HEAD = 64 * 1024;

    /** The answer's first header of that name, or null. */
    String header(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    /** Whether the connection may carry another call after this answer's body. */
    boolean keepAlive() {
        String connection = header("Connection");
        return "HTTP/1.1".equals(version) && (connection == null || !connection.equalsIgnoreCase("close"));
    }

    /**
     * Reads a head byte by byte (an upgraded connection's stream begins right after it, so nothing past the blank line
     * may be taken).
     *
     * @throws NoAnswerException when the stream ends before the first byte
     * @throws EngineProtocolException when the status line or a header is malformed, or the head is too long
     */
    static ResponseHead read(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        String statusLine = null;
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        int total = 0;
        while (true) {
            int b;
            try {
                b = in.read();
            } catch (IOException e) {
                throw total == 0 ? NoAnswerException.unlessOurs(e) : e; // reset before the first byte: never answered
            }
            if (b < 0) {
                if (total == 0) {
                    throw new NoAnswerException();
                }
                throw new EOFException("the connection ended inside the answer's headers");
            }
            if (++total > MAX_HEAD) {
                throw new EngineProtocolException("the answer's headers are longer than " + MAX_HEAD + " bytes");
            }
            if (b != '\n') {
                line.write(b);
                continue;
            }
            String text = line.toString(StandardCharsets.ISO_8859_1);
            line.reset();
            if (text.endsWith("\r")) {
                text = text.substring(0, text.length() - 1);
            }
            if (statusLine == null) {
                statusLine = text;
            } else if (text.isEmpty()) {
                break;
            } else {
                int colon = text.indexOf(':');
                if (colon <= 0) {
                    throw new EngineProtocolException("malformed header line \"" + text + "\"");
                }
                headers.computeIfAbsent(text.substring(0, colon).strip(), k -> new ArrayList<>())
                        .add(text.substring(colon + 1).strip());
            }
        }
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || parts[1].length() != 3) {
            throw new EngineProtocolException("malformed status line \"" + statusLine + "\"");
        }
        int status;
        try {
            status = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new EngineProtocolException("malformed status line \"" + statusLine + "\"");
        }
        return new ResponseHead(parts[0], status, parts.length > 2 ? parts[2] : "", headers);
    }

    /** The connection ended before any byte of an answer: a kept-alive connection the daemon had closed. */
    static final class NoAnswerException extends EOFException {
        NoAnswerException() {
            super("the daemon closed the connection without answering");
        }

        private NoAnswerException(IOException cause) {
            super("the daemon closed the connection without answering (" + cause.getMessage() + ")");
            initCause(cause);
        }

        /**
         * A failure before any byte of the answer, as the daemon's close ({@code Connection reset}, {@code Broken
         * pipe}), unless it is a timeout or the caller's own close of the channel, which stay as they are.
         */
        static IOException unlessOurs(IOException e) {
            boolean ours = e instanceof InterruptedIOException || e instanceof ClosedChannelException;
            return ours ? e : new NoAnswerException(e);
        }
    }
}
