package io.jkubelet.docker.engine;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * The output of a container without a TTY (logs, attach, exec): stdout and stderr multiplexed in frames, each an
 * 8-byte header (stream type, three zero bytes, big-endian payload length) and its payload. With a TTY the output is
 * the terminal's raw bytes instead and is read as it is.
 */
public final class LogFrames {
    /** The stream a frame belongs to, by the header's first byte. */
    public enum StreamType { STDIN, STDOUT, STDERR }

    /** One frame. */
    public record Frame(StreamType stream, byte[] payload) {}

    /**
     * A payload larger than this means the stream is out of step: dockerd writes a frame per write of the process
     * (its copy buffers are 32 KiB) or per log line (split at 16 KiB).
     */
    static final int MAX_PAYLOAD = 16 << 20;

    private final InputStream in;

    public LogFrames(InputStream in) {
        this.in = in;
    }

    /** The next frame; null at the end of the output. */
    public Frame next() throws IOException {
        byte[] header = in.readNBytes(8);
        if (header.length == 0) {
            return null;
        }
        if (header.length < 8) {
            throw new EOFException("the output ended inside a frame header");
        }
        if (header[0] > 2 || header[1] != 0 || header[2] != 0 || header[3] != 0) {
            throw new IOException("not a multiplexed frame header (stream type " + header[0]
                    + "); a container with a TTY sends raw output");
        }
        long length = ((header[4] & 0xFFL) << 24) | ((header[5] & 0xFF) << 16) | ((header[6] & 0xFF) << 8)
                | (header[7] & 0xFF);
        if (length > MAX_PAYLOAD) {
            throw new IOException("a frame of " + length + " bytes; the output is out of step");
        }
        byte[] payload = in.readNBytes((int) length);
        if (payload.length < length) {
            throw new EOFException("the output ended inside a frame");
        }
        return new Frame(StreamType.values()[header[0]], payload);
    }
}
