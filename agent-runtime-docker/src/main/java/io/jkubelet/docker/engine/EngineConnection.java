package io.jkubelet.docker.engine;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * One keep-alive connection to the daemon, used by one call at a time. The channel is non-blocking and waited on
 * with a selector, because a unix-domain {@link SocketChannel} has no {@code SO_TIMEOUT}: that is how a call gives
 * up after {@code runtimeRequestTimeout} without an answer. {@link #close()} from another thread ends a read in
 * progress (a stream's consumer stops it so).
 */
final class EngineConnection implements AutoCloseable {
    private static final int BUFFER = 16 * 1024;

    private final SocketChannel channel;
    private final Selector selector;
    private final SelectionKey key;
    private final InputStream in;
    private final OutputStream out;
    /** How long one read or write may wait; 0 waits for ever (streams). */
    private long timeoutMillis;

    private EngineConnection(SocketChannel channel) throws IOException {
        this.channel = channel;
        this.selector = Selector.open();
        channel.configureBlocking(false);
        this.key = channel.register(selector, SelectionKey.OP_READ);
        this.in = new BufferedInputStream(new ChannelInput(), BUFFER);
        this.out = new ChannelOutput();
    }

    static EngineConnection open(EngineEndpoint endpoint) throws IOException {
        SocketChannel channel = endpoint.connect();
        try {
            return new EngineConnection(channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    void timeout(Duration timeout) {
        this.timeoutMillis = timeout == null ? 0 : Math.max(1, timeout.toMillis());
    }

    InputStream in() {
        return in;
    }

    OutputStream out() {
        return out;
    }

    /**
     * Whether an idle connection can no longer carry a call: the daemon closed it (it reads as ready, at its end) or
     * sent something nobody asked for.
     */
    boolean stale() {
        try {
            if (!channel.isOpen() || in.available() > 0) {
                return true;
            }
            selector.selectedKeys().clear();
            return selector.selectNow() > 0;
        } catch (IOException | ClosedSelectorException e) {
            return true;
        }
    }

    @Override
    public void close() {
        try {
            selector.close(); // wakes a reader waiting in select
        } catch (IOException ignored) {
            // Nothing to release beyond the channel.
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // The connection is being dropped; a failed close changes nothing.
        }
    }

    /** Waits until the channel is ready for {@code ops}, at most {@link #timeoutMillis}. */
    private void await(int ops) throws IOException {
        long deadline = timeoutMillis == 0 ? 0 : System.nanoTime() + timeoutMillis * 1_000_000;
        try {
            key.interestOps(ops);
            while (true) {
                selector.selectedKeys().clear();
                long left = deadline == 0 ? 0 : (deadline - System.nanoTime()) / 1_000_000;
                if (deadline != 0 && left <= 0) {
                    throw new SocketTimeoutException("no data within " + timeoutMillis + " ms");
                }
                int ready = deadline == 0 ? selector.select() : selector.select(left);
                if (!selector.isOpen() || !channel.isOpen()) {
                    throw new AsynchronousCloseException();
                }
                if (ready > 0) {
                    return;
                }
                if (Thread.currentThread().isInterrupted()) {
                    close(); // the call is abandoned; its connection is mid-answer
                    throw new InterruptedIOException("interrupted while waiting for the Docker daemon");
                }
            }
        } catch (ClosedSelectorException | CancelledKeyException e) {
            throw new AsynchronousCloseException();
        }
    }

    private final class ChannelInput extends BulkInputStream {
        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
            while (true) {
                int n = channel.read(buffer);
                if (n != 0) {
                    return n;
                }
                await(SelectionKey.OP_READ);
            }
        }
    }

    private final class ChannelOutput extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
            while (buffer.hasRemaining()) {
                if (channel.write(buffer) == 0) {
                    await(SelectionKey.OP_WRITE);
                }
            }
        }
    }
}
