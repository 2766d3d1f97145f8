package io.jkubelet.core.objects;

import java.util.concurrent.CompletionStage;

/**
 * A watch of one namespaced object (upstream's per-object reflector of the {@code Watch} strategy): its first list,
 * then its changes as the apiserver sends them. Thread-safe; {@link #close()} is idempotent.
 *
 * @param <T> the object's type
 */
public interface ObjectWatch<T> extends AutoCloseable {
    /** Completes once the object has been listed; completes exceptionally when that failed (403, no answer). */
    CompletionStage<Void> synced();

    /** The object as last seen, or null when it does not exist. */
    T current();

    @Override
    void close();
}
