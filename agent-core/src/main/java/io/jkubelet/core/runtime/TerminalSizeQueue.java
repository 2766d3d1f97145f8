package io.jkubelet.core.runtime;

/**
 * The resize events of a streaming session with a TTY, in the order the client sent them (upstream
 * {@code remotecommand.TerminalSizeQueue}).
 */
@FunctionalInterface
public interface TerminalSizeQueue {

    /** A queue that never yields a size. */
    TerminalSizeQueue NONE = () -> null;

    /**
     * Blocks until the client sends a size.
     *
     * @return the next size, or null once the session has ended and no more will come
     * @throws InterruptedException when the waiting thread is interrupted
     */
    TerminalSize next() throws InterruptedException;
}
