package io.jkubelet.core.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Streams over a blocking {@link SocketChannel} that one thread may read while another writes: {@code
 * Channels.newInputStream} and {@code newOutputStream} may hold the channel's blocking lock for a whole
 * read, which would stall stdin behind a read of the process's output.
 */
public final class SocketStreams {
    private SocketStreams() {}

    public static InputStream input(SocketChannel channel) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n;
                while ((n = read(one, 0, 1)) == 0) {
                    // A blocking channel returns at least one byte or the end; loop for safety.
                }
                return n < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return len == 0 ? 0 : channel.read(ByteBuffer.wrap(b, off, len));
            }
        };
    }

    public static OutputStream output(SocketChannel channel) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                ByteBuffer buf = ByteBuffer.wrap(b, off, len);
                while (buf.hasRemaining()) {
                    channel.write(buf);
                }
            }
        };
    }
}
