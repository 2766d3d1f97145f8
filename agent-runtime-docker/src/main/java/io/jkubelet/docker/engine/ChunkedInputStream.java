package io.jkubelet.docker.engine;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A {@code Transfer-Encoding: chunked} body: dockerd sends streams (events, pulls, logs) and most JSON answers so.
 * Ends after the last chunk and its trailers, leaving the connection at the next answer.
 */
final class ChunkedInputStream extends BulkInputStream {
    /** A chunk-size line (hex size and extensions) longer than this is not dockerd's. */
    private static final int MAX_LINE = 4096;

    private final InputStream in;
    private long left;
    private boolean ended;

    ChunkedInputStream(InputStream in) {
        this.in = in;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (left == 0 && !nextChunk()) {
            return -1;
        }
        int n = in.read(b, off, (int) Math.min(len, left));
        if (n < 0) {
            throw new EOFException("the connection ended inside a chunk");
        }
        left -= n;
        if (left == 0) {
            endOfChunk();
        }
        return n;
    }

    @Override
    public int available() throws IOException {
        return ended ? 0 : (int) Math.min(left, in.available());
    }

    /** Reads the next chunk's size; false after the last chunk (and its trailers). */
    private boolean nextChunk() throws IOException {
        if (ended) {
            return false;
        }
        String line = line();
        int semicolon = line.indexOf(';');
        String hex = (semicolon < 0 ? line : line.substring(0, semicolon)).strip();
        try {
            left = Long.parseLong(hex, 16);
        } catch (NumberFormatException e) {
            throw new EngineProtocolException("malformed chunk size \"" + line + "\"");
        }
        if (left < 0) {
            throw new EngineProtocolException("malformed chunk size \"" + line + "\"");
        }
        if (left == 0) {
            while (!line().isEmpty()) {
                // Trailers: none that the adapter reads.
            }
            ended = true;
            return false;
        }
        return true;
    }

    private void endOfChunk() throws IOException {
        if (!line().isEmpty()) {
            throw new EngineProtocolException("a chunk is longer than its size");
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the connection ended inside a chunked body");
            }
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            if (line.size() >= MAX_LINE) {
                throw new EngineProtocolException("a chunk-size line is longer than " + MAX_LINE + " bytes");
            }
            line.write(b);
        }
    }
}
