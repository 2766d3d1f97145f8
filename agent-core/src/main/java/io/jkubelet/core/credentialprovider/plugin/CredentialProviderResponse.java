package io.jkubelet.core.credentialprovider.plugin;

import java.time.Duration;
import java.util.Map;

/**
 * A plugin's answer ({@code credentialprovider.kubelet.k8s.io} {@code CredentialProviderResponse}, any version).
 *
 * @param cacheKeyType {@code Image}, {@code Registry} or {@code Global}: what the answer may be cached for (any other
 *     value makes the answer unusable)
 * @param cacheDuration how long to cache it; null when the plugin said nothing (the provider's
 *     {@code defaultCacheDuration} then), zero for not at all
 * @param auth credentials by registry location, which may hold globs
 */
record CredentialProviderResponse(String cacheKeyType, Duration cacheDuration, Map<String, AuthConfig> auth) {
    CredentialProviderResponse {
        auth = Map.copyOf(auth);
    }

    /** One registry's credentials in a response. */
    record AuthConfig(String username, String password) {}
}
