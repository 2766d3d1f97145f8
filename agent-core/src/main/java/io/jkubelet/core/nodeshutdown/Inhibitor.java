package io.jkubelet.core.nodeshutdown;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * What the node shutdown manager asks of systemd-logind (upstream {@code dbusInhibiter}): a connection to the system
 * bus. Implemented over D-Bus in agent-cmd; tests use a fake. Thread-safe.
 */
public interface Inhibitor extends AutoCloseable {

    /** Logind's {@code InhibitDelayMaxUSec}: how long a delay lock may hold a shutdown back. */
    Duration currentInhibitDelay() throws IOException;

    /** Takes a delay inhibitor lock for {@code shutdown} (who {@code kubelet}); the shutdown waits until it is released. */
    InhibitLock inhibitShutdown() throws IOException;

    /** Writes logind's drop-in raising {@code InhibitDelayMaxSec} to {@code inhibitDelayMax}. */
    void overrideInhibitDelay(Duration inhibitDelayMax) throws IOException;

    /** Makes logind read its configuration again. */
    void reloadLogindConf() throws IOException;

    /**
     * Delivers logind's {@code PrepareForShutdown} signals from now on: true when a shutdown begins, false when it is
     * cancelled; {@code ended} runs once if the connection to the bus ends without {@link #close()} (the bus went away).
     */
    void monitorShutdown(Consumer<Boolean> events, Runnable ended) throws IOException;

    @Override
    void close();

    /** A held inhibitor lock: the file descriptor logind handed out. */
    interface InhibitLock {
        /** Closes the descriptor, so that logind goes on with the shutdown. */
        void release() throws IOException;
    }

    /** Opens a connection to the system bus (upstream {@code systemDbus}). */
    @FunctionalInterface
    interface Connector {
        Inhibitor connect() throws IOException;
    }
}
