package io.jkubelet.core.credentialprovider;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The node's credential providers as one keyring per image (upstream {@code providersDockerKeyring}, made by
 * {@code NewDockerKeyring}): the node's {@code config.json} (registered upstream as {@value #DOCKERCFG}) and each
 * credential provider plugin under its name. Every provider is asked at every lookup, in the byte order of the names,
 * and all they give goes into one keyring: a more specific location comes first whoever gave it, and for the same
 * location the provider whose name sorts first comes first. {@value #DOCKERCFG} sorts before any name that starts
 * with a letter or a digit, so for the same location the node's {@code config.json} is tried before a plugin's
 * credentials. (A pod's {@code imagePullSecrets} come before all of it: {@link PodKeyrings}.)
 *
 * <p>Issue 34 asked for plugin credentials between the pull secrets and {@code config.json}; upstream v1.30 has no
 * such tier ({@code NewDockerKeyring} sorts the registered providers' names, {@code providersDockerKeyring.Lookup} adds
 * each one's {@code DockerConfig} to one {@code BasicDockerKeyring}), and this class follows upstream. Thread-safe.
 */
public final class NodeCredentialProviders {
    /** The name upstream registers its default provider (the node's {@code config.json}, {@code .dockercfg}) under. */
    public static final String DOCKERCFG = ".dockercfg";
    /** Go's {@code sort.Strings}: by bytes, not by UTF-16 units. */
    private static final Comparator<String> GO_ORDER = (a, b) ->
            Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    /** One image's keyring, and the providers that failed to give theirs. */
    public record Keyring(DockerKeyring keyring, List<String> failures) {}

    private final TreeMap<String, DockerConfigProvider> providers = new TreeMap<>(GO_ORDER);

    /**
     * @param dockercfg the node's {@code config.json} provider
     * @param plugins the plugins by name
     * @throws IllegalArgumentException when a plugin takes the name {@value #DOCKERCFG}, as upstream's fatal
     *     {@code Credential provider ".dockercfg" was registered twice}
     */
    public NodeCredentialProviders(DockerConfigProvider dockercfg, Map<String, ? extends DockerConfigProvider> plugins) {
        providers.put(DOCKERCFG, dockercfg);
        plugins.forEach((name, plugin) -> {
            if (providers.putIfAbsent(name, plugin) != null) {
                throw new IllegalArgumentException("Credential provider \"" + name + "\" was registered twice");
            }
        });
    }

    /** The provider names in the order they are asked. */
    public List<String> names() {
        return List.copyOf(providers.keySet());
    }

    /**
     * Asks every provider for {@code image}.
     *
     * @param image the repository to pull ({@code repoToPull}); null when the image's name cannot be read, which
     *     asks no provider
     */
    public Keyring keyring(String image) {
        if (image == null) {
            return new Keyring(DockerKeyring.EMPTY, List.of());
        }
        DockerKeyring keyring = DockerKeyring.EMPTY;
        List<String> failures = new ArrayList<>();
        for (DockerConfigProvider provider : providers.values()) {
            ProvidedCredentials provided = provider.provide(image);
            keyring = keyring.with(provided.config());
            provided.failure().ifPresent(failures::add);
        }
        return new Keyring(keyring, failures);
    }
}
