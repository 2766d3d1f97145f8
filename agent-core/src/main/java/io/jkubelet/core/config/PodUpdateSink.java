package io.jkubelet.core.config;

/**
 * Where a source sends its updates: a source's end of a {@link PodConfig#channel(String) channel}.
 *
 * <p>{@link #send} may block while the receiver's queue is full (as a Go channel send blocks);
 * it returns early, leaving the thread's interrupt flag set, when the sending thread is interrupted.
 * Implementations are thread-safe. The sender keeps ownership of the pods it sends: the receiver
 * neither keeps nor mutates them.
 */
@FunctionalInterface
public interface PodUpdateSink {

    void send(PodUpdate update);
}
