package io.jkubelet.server.logs;

import io.jkubelet.server.http.ResponseStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** A response body in memory whose client leaves after {@code waitsBeforeLeaving} waits of a follower. */
final class MemoryBody extends ResponseStream {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final AtomicInteger waits = new AtomicInteger();
    final int waitsBeforeLeaving;

    MemoryBody(int waitsBeforeLeaving) {
        this.waitsBeforeLeaving = waitsBeforeLeaving;
    }

    /** A client that stays. */
    static MemoryBody staying() {
        return new MemoryBody(Integer.MAX_VALUE);
    }

    @Override
    public void write(int b) {
        bytes.write(b);
    }

    @Override
    public boolean clientGone() {
        return waits.get() >= waitsBeforeLeaving;
    }

    @Override
    public boolean awaitClientGone(Duration timeout) {
        waits.incrementAndGet();
        return clientGone();
    }

    String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
