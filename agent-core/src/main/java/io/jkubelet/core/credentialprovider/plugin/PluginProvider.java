package io.jkubelet.core.credentialprovider.plugin;

import io.jkubelet.core.credentialprovider.DockerConfigProvider;
import io.jkubelet.core.credentialprovider.ProvidedCredentials;
import io.jkubelet.core.credentialprovider.UrlGlob;
import io.jkubelet.core.runtime.RegistryAuth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * One credential provider plugin as a source of the node's credentials (upstream {@code pluginProvider}). For an image
 * its {@code matchImages} match, it answers from its cache, or else runs the plugin: concurrent asks for one image run
 * it once and share its answer (upstream's singleflight, keyed by the image, so asks for two images of one registry
 * may each run it). The answer is cached under its {@code cacheKeyType}'s key for its {@code cacheDuration}, or the
 * provider's {@code defaultCacheDuration} when it gave none; a duration of zero caches nothing. A plugin that fails,
 * or answers what cannot be used, gives no credentials and a failure naming it; nothing is cached, so the next pull
 * asks it again. Thread-safe.
 */
public final class PluginProvider implements DockerConfigProvider {
    private static final Logger log = LoggerFactory.getLogger(PluginProvider.class);

    /** How a plugin is run for an image ({@link ExecPlugin}); tests may stand in. */
    @FunctionalInterface
    interface Plugin {
        CredentialProviderResponse exec(String image) throws ExecPlugin.ExecException, InterruptedException;
    }

    private final String name;
    private final List<String> matchImages;
    private final Duration defaultCacheDuration;
    private final Plugin plugin;
    private final Clock clock;
    private final PluginCache cache;
    private final ConcurrentHashMap<String, CompletableFuture<CredentialProviderResponse>> inFlight =
            new ConcurrentHashMap<>();

    PluginProvider(String name, List<String> matchImages, Duration defaultCacheDuration, Plugin plugin, Clock clock) {
        this.name = name;
        this.matchImages = List.copyOf(matchImages);
        this.defaultCacheDuration = defaultCacheDuration;
        this.plugin = plugin;
        this.clock = clock;
        this.cache = new PluginCache(clock);
    }

    public String name() {
        return name;
    }

    @Override
    public ProvidedCredentials provide(String image) {
        if (matchImages.stream().noneMatch(glob -> UrlGlob.matches(glob, image))) {
            return ProvidedCredentials.NONE;
        }
        Optional<Map<String, RegistryAuth>> cached = cache.get(image);
        if (cached.isPresent()) {
            return ProvidedCredentials.of(cached.get());
        }
        CredentialProviderResponse response;
        try {
            response = execOnce(image);
        } catch (ExecPlugin.ExecException e) {
            return failed(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed("interrupted while waiting for the plugin for image " + image);
        }
        String cacheKey = switch (response.cacheKeyType()) {
            case "Image" -> image;
            case "Registry" -> PluginCache.registry(image);
            case "Global" -> PluginCache.GLOBAL_KEY;
            default -> null;
        };
        if (cacheKey == null) {
            return failed("credential provider plugin did not return a valid cacheKeyType: \""
                    + response.cacheKeyType() + "\"");
        }
        Map<String, RegistryAuth> credentials = new LinkedHashMap<>();
        response.auth().forEach((location, auth) ->
                credentials.put(location, new RegistryAuth(auth.username(), auth.password(), location, null)));
        Duration lifetime = response.cacheDuration() != null ? response.cacheDuration() : defaultCacheDuration;
        if (!lifetime.isZero()) {
            Instant expiresAt = clock.instant().plus(lifetime);
            cache.put(cacheKey, credentials, expiresAt);
        }
        return ProvidedCredentials.of(credentials);
    }

    /** Runs the plugin, or waits for the run already under way for the same image and takes its answer. */
    private CredentialProviderResponse execOnce(String image) throws ExecPlugin.ExecException, InterruptedException {
        CompletableFuture<CredentialProviderResponse> mine = new CompletableFuture<>();
        CompletableFuture<CredentialProviderResponse> running = inFlight.putIfAbsent(image, mine);
        if (running == null) {
            try {
                mine.complete(plugin.exec(image));
            } catch (ExecPlugin.ExecException | InterruptedException | RuntimeException e) {
                mine.completeExceptionally(e);
            } finally {
                inFlight.remove(image, mine);
            }
            running = mine;
        }
        try {
            return running.get();
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case ExecPlugin.ExecException exec -> throw new ExecPlugin.ExecException(exec.getMessage());
                case InterruptedException interrupted -> throw new ExecPlugin.ExecException(
                        "the run of credential provider plugin " + name + " for image " + image + " was interrupted");
                case RuntimeException unexpected -> throw unexpected;
                default -> throw new IllegalStateException(e.getCause());
            }
        }
    }

    /**
     * Upstream logs {@code Failed getting credential from external registry credential provider: <err>}; we name the
     * provider in it, since the error goes into the pull's error too.
     */
    private ProvidedCredentials failed(String why) {
        String failure = "Failed getting credential from external registry credential provider " + name + ": " + why;
        log.error(failure);
        return ProvidedCredentials.failed(failure);
    }
}
