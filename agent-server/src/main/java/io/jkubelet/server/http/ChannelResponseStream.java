package io.jkubelet.server.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultHttpContent;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link ResponseStream} on a Netty channel: each flush becomes one {@code HttpContent} (an HTTP/1.1 chunk,
 * or bare bytes for HTTP/1.0), written from the writer's thread. Flow control: before sending, the writer
 * waits while the channel is not writable (more than the channel's high-water mark, 64 KiB by default, is
 * queued), so a slow client holds back the writer instead of growing the agent's memory. The dispatcher
 * calls {@link #writabilityChanged()} and {@link #cancel()} from the event loop.
 */
final class ChannelResponseStream extends ResponseStream {

    /** Bytes gathered before a chunk is sent without an explicit flush. */
    static final int BUFFER_SIZE = 8192;

    private final Channel channel;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final byte[] buffer = new byte[BUFFER_SIZE];
    private int count;
    private volatile boolean gone;
    private volatile String goneReason = "the client closed the connection";
    private ChannelFuture lastWrite;

    ChannelResponseStream(Channel channel) {
        this.channel = Objects.requireNonNull(channel, "channel");
    }

    @Override
    public void write(int b) throws IOException {
        ensureOpen();
        if (count == buffer.length) {
            sendBuffer();
        }
        buffer[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        while (len > 0) {
            if (count == buffer.length) {
                sendBuffer();
            }
            int n = Math.min(len, buffer.length - count);
            System.arraycopy(b, off, buffer, count, n);
            count += n;
            off += n;
            len -= n;
        }
    }

    @Override
    public void flush() throws IOException {
        ensureOpen();
        if (count > 0) {
            sendBuffer();
        }
    }

    /** Sends what is buffered and waits until the client has taken it; the writer is done. */
    void finish() throws IOException {
        flush();
        ChannelFuture last = lastWrite;
        if (last != null) {
            last.awaitUninterruptibly();
            if (!last.isSuccess()) {
                cancel("the connection failed: " + last.cause());
                ensureOpen();
            }
        }
    }

    @Override
    public boolean clientGone() {
        return gone || !channel.isActive();
    }

    @Override
    public boolean awaitClientGone(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            while (!clientGone()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                changed.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The channel's writability changed; wakes a writer waiting for room. */
    void writabilityChanged() {
        signal();
    }

    /** The connection is gone (or must go): the next write throws, waiters wake. */
    void cancel() {
        cancel("the client closed the connection");
    }

    private void cancel(String reason) {
        if (!gone) {
            goneReason = reason;
            gone = true;
        }
        signal();
    }

    private void signal() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpen() throws ClientGoneException {
        if (clientGone()) {
            throw new ClientGoneException(goneReason);
        }
    }

    private void sendBuffer() throws IOException {
        awaitWritable();
        byte[] chunk = Arrays.copyOf(buffer, count);
        count = 0;
        ChannelFuture f = channel.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(chunk)));
        f.addListener(done -> {
            if (!done.isSuccess()) {
                cancel("the connection failed: " + done.cause());
            }
        });
        lastWrite = f;
    }

    private void awaitWritable() throws IOException {
        lock.lock();
        try {
            // Timed waits: writability events are the fast path, the timeout only guards a missed signal.
            while (!channel.isWritable() && !clientGone()) {
                changed.await(100, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel("the server is shutting down");
        } finally {
            lock.unlock();
        }
        ensureOpen();
    }
}
