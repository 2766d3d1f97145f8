package io.jkubelet.server.streaming;

import io.netty.channel.Channel;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * What a client sends on one channel, as an {@link InputStream} for the session's thread. The event loop
 * {@linkplain #offer offers} each message's payload; {@link #finish()} marks the end (the client closed
 * the stream or the connection). When more than {@link #HIGH_WATER} bytes wait unread, the connection
 * stops reading until the consumer has caught up, so a fast client cannot fill the agent's memory.
 */
final class ChannelInput extends InputStream {

    static final int HIGH_WATER = 1 << 20;
    static final int LOW_WATER = 256 << 10;
    private static final byte[] END = new byte[0];

    private final Channel channel;
    private final LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
    private long buffered;
    private byte[] current;
    private int position;
    private boolean ended;
    private volatile boolean finished;

    ChannelInput(Channel channel) {
        this.channel = channel;
    }

    /** Called on the event loop with one message's payload. */
    void offer(byte[] data) {
        if (finished || data.length == 0) {
            return;
        }
        boolean pause;
        synchronized (this) {
            buffered += data.length;
            pause = buffered > HIGH_WATER;
        }
        queue.add(data);
        if (pause) {
            channel.config().setAutoRead(false);
        }
    }

    /** Ends the stream after what was offered; idempotent, any thread. */
    void finish() {
        if (!finished) {
            finished = true;
            queue.add(END);
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (ended) {
            return -1;
        }
        while (current == null || position == current.length) {
            try {
                current = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("streaming session ended");
            }
            position = 0;
            if (current == END) {
                ended = true;
                return -1;
            }
        }
        int n = Math.min(len, current.length - position);
        System.arraycopy(current, position, b, off, n);
        position += n;
        boolean resume;
        synchronized (this) {
            buffered -= n;
            resume = buffered < LOW_WATER;
        }
        if (resume && !channel.config().isAutoRead()) {
            channel.config().setAutoRead(true);
        }
        return n;
    }
}
