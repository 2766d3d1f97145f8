package io.jkubelet.core.objects;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@code Watch} change-detection strategy (upstream's {@code watchBasedManager}): the first use of an object starts
 * a watch of it, and every use reads the watched copy, so a change reaches the pods' next sync at once. A use waits
 * for the watch's first list up to a second, as upstream's does. A watch no use has read for {@code maxIdle}
 * (upstream: five resync intervals) is stopped, and started again by the next use; the pods' syncs read the objects
 * they use every {@code syncFrequency}, which keeps theirs open. Upstream starts the watches when a pod is registered;
 * here the first read does. Thread-safe.
 */
final class WatchedGet<T> implements AutoCloseable {
    /** Upstream polls the reflector's HasSynced for one second. */
    static final Duration SYNC_TIMEOUT = Duration.ofSeconds(1);

    interface Watcher<T> {
        ObjectWatch<T> watch(String namespace, String name);
    }

    private static final class Item<T> {
        final ObjectWatch<T> watch;
        volatile Instant lastUsed;

        Item(ObjectWatch<T> watch, Instant lastUsed) {
            this.watch = watch;
            this.lastUsed = lastUsed;
        }
    }

    private final String kind;
    private final Watcher<T> watcher;
    private final Clock clock;
    private final Duration maxIdle;
    private final Map<String, Item<T>> items = new ConcurrentHashMap<>();

    WatchedGet(String kind, Watcher<T> watcher, Clock clock, Duration maxIdle) {
        this.kind = kind;
        this.watcher = watcher;
        this.clock = clock;
        this.maxIdle = maxIdle;
    }

    T get(String namespace, String name) throws ObjectException {
        Instant now = clock.instant();
        stopIdle(now);
        String key = namespace + "/" + name;
        Item<T> item = items.computeIfAbsent(key, k -> new Item<>(watcher.watch(namespace, name), now));
        item.lastUsed = now;
        try {
            item.watch.synced().toCompletableFuture().get(SYNC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new ObjectException("failed to sync " + kind + " cache: timed out waiting for the condition", false);
        } catch (ExecutionException e) {
            // A watch whose list failed is dropped, so that the next use tries again.
            items.remove(key, item);
            item.watch.close();
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new ObjectException("failed to watch " + kind + " " + key + ": " + cause.getMessage(), false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ObjectException("interrupted waiting for the " + kind + " cache of " + key, false);
        }
        T object = item.watch.current();
        if (object == null) {
            throw ObjectException.notFound(kind, name);
        }
        return object;
    }

    /** How many objects are watched now. */
    int watched() {
        return items.size();
    }

    private void stopIdle(Instant now) {
        items.entrySet().removeIf(e -> {
            boolean idle = !now.isBefore(e.getValue().lastUsed.plus(maxIdle));
            if (idle) {
                e.getValue().watch.close();
            }
            return idle;
        });
    }

    @Override
    public void close() {
        items.values().forEach(item -> item.watch.close());
        items.clear();
    }
}
