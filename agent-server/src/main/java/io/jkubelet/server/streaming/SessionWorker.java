package io.jkubelet.server.streaming;

import io.netty.channel.Channel;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The virtual thread that serves one streaming session (exec, attach or port-forward) once its protocol
 * (WebSocket or SPDY) is set up: it runs the session's work, treats the client going away as the normal
 * end, and closes the session's streams whatever happens.
 */
final class SessionWorker {

    private static final Logger log = LoggerFactory.getLogger(SessionWorker.class);

    /** A session's work over its open streams. */
    @FunctionalInterface
    interface Work {
        void run() throws IOException, InterruptedException;
    }

    private SessionWorker() {}

    /**
     * What a session does when its connection closes, however that happens: ends the inputs its work reads,
     * interrupts the work's thread (recorded later in the returned reference), and gives its slot back.
     */
    static AtomicReference<Thread> endWithConnection(String name, Channel channel, Runnable finishInputs,
            StreamingSessions sessions) {
        AtomicReference<Thread> worker = new AtomicReference<>();
        channel.closeFuture().addListener(f -> {
            finishInputs.run();
            Thread t = worker.get();
            if (t != null) {
                t.interrupt();
            }
            sessions.closed();
            log.debug("{}: connection closed", name);
        });
        return worker;
    }

    /**
     * Starts {@code work} on a virtual thread recorded in {@code worker} (so that the channel's closing can
     * interrupt it), interrupting it at once if the channel already closed meanwhile.
     */
    static void start(String name, Channel channel, AtomicReference<Thread> worker, Work work, Runnable closeStreams) {
        Thread t = Thread.ofVirtual().name("stream " + name).unstarted(() -> run(name, work, closeStreams));
        worker.set(t);
        t.start();
        if (!channel.isActive()) {
            t.interrupt();
        }
    }

    private static void run(String name, Work work, Runnable closeStreams) {
        try {
            work.run();
        } catch (InterruptedException | InterruptedIOException e) {
            log.debug("{}: the client went away", name);
        } catch (IOException e) {
            log.debug("{}: {}", name, e.toString());
        } catch (RuntimeException | Error e) {
            log.warn("{}: session failed", name, e);
        } finally {
            closeStreams.run();
        }
    }
}
