package io.jkubelet.core.credentialprovider;

import io.jkubelet.core.runtime.RegistryAuth;

import java.util.List;

/**
 * What one pull may try.
 *
 * @param auths the credentials to try, in order; empty to pull without credentials
 * @param providerFailures why credential providers gave nothing, each naming its provider: the pull goes on without
 *     their credentials (as upstream's does) and, when it fails, its error names them
 */
public record PullCredentials(List<RegistryAuth> auths, List<String> providerFailures) {
    public PullCredentials {
        auths = List.copyOf(auths);
        providerFailures = List.copyOf(providerFailures);
    }
}
