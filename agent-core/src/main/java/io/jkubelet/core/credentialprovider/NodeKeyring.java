package io.jkubelet.core.credentialprovider;

import io.jkubelet.core.runtime.RegistryAuth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The node's own credentials as a keyring (upstream's default provider, registered as
 * {@value NodeCredentialProviders#DOCKERCFG}), read again at most every {@link #LIFETIME} (upstream registers its
 * default provider behind a {@code CachingDockerConfigProvider} with that lifetime): a credentials file written or
 * changed while the kubelet runs is used within five minutes, and a burst of pulls reads the files once.
 * Thread-safe.
 */
public final class NodeKeyring implements DockerConfigProvider {
    /** Upstream's lifetime of the {@code .dockercfg} provider's cache. */
    public static final Duration LIFETIME = Duration.ofMinutes(5);

    private final Supplier<Map<String, RegistryAuth>> files;
    private final Clock clock;
    private Map<String, RegistryAuth> entries;
    private DockerKeyring cached;
    private Instant expiration;

    /** @param files reads the node's credentials, e.g. {@code () -> DockerConfigFiles.read(paths)} */
    public NodeKeyring(Supplier<Map<String, RegistryAuth>> files, Clock clock) {
        this.files = files;
        this.clock = clock;
    }

    /** The node's credentials for the search paths of {@link DockerConfigFiles}. */
    public static NodeKeyring of(DockerConfigFiles.SearchPaths paths, Clock clock) {
        return new NodeKeyring(() -> DockerConfigFiles.read(paths), clock);
    }

    /** The keyring as last read, read again once it is {@link #LIFETIME} old. */
    public synchronized DockerKeyring get() {
        Instant now = clock.instant();
        if (cached == null || !now.isBefore(expiration)) {
            entries = Map.copyOf(files.get());
            cached = DockerKeyring.EMPTY.with(entries);
            expiration = now.plus(LIFETIME);
        }
        return cached;
    }

    /** The node's credentials for every image: the files name their registries themselves. */
    @Override
    public synchronized ProvidedCredentials provide(String image) {
        get();
        return ProvidedCredentials.of(entries);
    }
}
