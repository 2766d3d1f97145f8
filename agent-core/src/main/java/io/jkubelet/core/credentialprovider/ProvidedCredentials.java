package io.jkubelet.core.credentialprovider;

import io.jkubelet.core.runtime.RegistryAuth;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What one {@link DockerConfigProvider} gave for one image (upstream's {@code DockerConfig}).
 *
 * @param config credentials by registry location, which may hold globs ({@code *.registry.io}); empty for none
 * @param failure why the provider gave nothing, in the words the pull's error shows; empty when nothing failed
 *     (an image the provider does not serve is no failure)
 */
public record ProvidedCredentials(Map<String, RegistryAuth> config, Optional<String> failure) {
    public static final ProvidedCredentials NONE = new ProvidedCredentials(Map.of(), Optional.empty());

    public ProvidedCredentials {
        config = Collections.unmodifiableMap(new LinkedHashMap<>(config));
    }

    public static ProvidedCredentials of(Map<String, RegistryAuth> config) {
        return new ProvidedCredentials(config, Optional.empty());
    }

    public static ProvidedCredentials failed(String failure) {
        return new ProvidedCredentials(Map.of(), Optional.of(failure));
    }
}
