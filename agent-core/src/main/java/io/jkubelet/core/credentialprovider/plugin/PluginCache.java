package io.jkubelet.core.credentialprovider.plugin;

import io.jkubelet.core.runtime.RegistryAuth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One plugin's cached answers (upstream's expiration store in {@code pluginProvider}), each under the key its
 * {@code cacheKeyType} chose: the image ({@code Image}), the image's registry host and port ({@code Registry}) or one
 * key for every image ({@code Global}). An image is looked up under those three keys in that order. An entry is used
 * until the clock is past its expiry; expired entries are dropped when looked up, and all of them every
 * {@link #PURGE_INTERVAL}. Thread-safe.
 */
final class PluginCache {
    /** Upstream's {@code cachePurgeInterval}. */
    static final Duration PURGE_INTERVAL = Duration.ofMinutes(15);
    /** Upstream's {@code globalCacheKey}. */
    static final String GLOBAL_KEY = "global";

    private record Entry(Map<String, RegistryAuth> credentials, Instant expiresAt) {}

    private final Clock clock;
    private final Map<String, Entry> entries = new HashMap<>();
    private Instant lastPurge;

    PluginCache(Clock clock) {
        this.clock = clock;
        this.lastPurge = clock.instant();
    }

    /** The registry an image is on, with its port: what precedes its first {@code /} (upstream {@code parseRegistry}). */
    static String registry(String image) {
        int slash = image.indexOf('/');
        return slash < 0 ? image : image.substring(0, slash);
    }

    /** The credentials cached for {@code image} under its image, registry or the global key. */
    synchronized Optional<Map<String, RegistryAuth>> get(String image) {
        Instant now = clock.instant();
        if (now.isAfter(lastPurge.plus(PURGE_INTERVAL))) {
            entries.values().removeIf(e -> now.isAfter(e.expiresAt()));
            lastPurge = now;
        }
        for (String key : new String[] {image, registry(image), GLOBAL_KEY}) {
            Entry entry = entries.get(key);
            if (entry != null && now.isAfter(entry.expiresAt())) {
                entries.remove(key);
                entry = null;
            }
            if (entry != null) {
                return Optional.of(entry.credentials());
            }
        }
        return Optional.empty();
    }

    synchronized void put(String key, Map<String, RegistryAuth> credentials, Instant expiresAt) {
        entries.put(key, new Entry(Map.copyOf(credentials), expiresAt));
    }

    synchronized int size() {
        return entries.size();
    }
}
