package io.jkubelet.core.objects;

import io.jkubelet.core.apierrors.ApiException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A GET of one namespaced object per {@code ttl} (upstream's {@code Cache} change-detection strategy,
 * {@code cacheBasedManager}); with a zero TTL a GET at every use that keeps nothing (the {@code Get} strategy). Chosen over upstream's default {@code Watch} strategy because a GET needs no
 * per-object watch bookkeeping (register/unregister on every pod add and delete) and the kubelet already resyncs
 * every pod each {@code syncFrequency}, which is when volumes are refreshed; the cache keeps the GETs of one sync
 * (one per volume plus one per env reference of each container) to one per object. The TTL is upstream's
 * {@code defaultTTL} of one minute. A NotFound is never cached, so a missing object is looked up again on the
 * pod's next sync and the pod starts as soon as it exists.
 */
final class CachedGet<T> {
    /** Upstream's {@code defaultTTL} for the Get strategy. */
    static final Duration DEFAULT_TTL = Duration.ofMinutes(1);

    interface Getter<T> {
        /** The object, or null when the apiserver says it does not exist. */
        T get(String namespace, String name) throws ApiException;
    }

    private record Entry<T>(T object, Instant fetched) {}

    private final String kind;
    private final Getter<T> getter;
    private final Clock clock;
    private final Duration ttl;
    private final Map<String, Entry<T>> cache = new ConcurrentHashMap<>();

    CachedGet(String kind, Getter<T> getter, Clock clock, Duration ttl) {
        this.kind = kind;
        this.getter = getter;
        this.clock = clock;
        this.ttl = ttl;
    }

    T get(String namespace, String name) throws ObjectException {
        String key = namespace + "/" + name;
        Instant now = clock.instant();
        Entry<T> e = cache.get(key);
        if (e != null && now.isBefore(e.fetched().plus(ttl))) {
            return e.object();
        }
        T object;
        try {
            object = getter.get(namespace, name);
        } catch (ApiException ex) {
            if (ex.code() == 404) {
                cache.remove(key);
                throw ObjectException.notFound(kind, name);
            }
            // Keep serving the last copy when the apiserver cannot be reached: running pods keep their data.
            if (e != null) {
                return e.object();
            }
            throw new ObjectException("failed to get " + kind + " " + key + ": " + ex.getMessage(), false);
        }
        if (object == null) {
            cache.remove(key);
            throw ObjectException.notFound(kind, name);
        }
        if (ttl.isPositive()) {
            cache.put(key, new Entry<>(object, now));
        }
        return object;
    }
}
