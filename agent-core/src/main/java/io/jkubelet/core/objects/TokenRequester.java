package io.jkubelet.core.objects;

import io.fabric8.kubernetes.api.model.authentication.TokenRequest;

/** Sends a TokenRequest ({@code POST serviceaccounts/<name>/token}) and returns the apiserver's answer. */
@FunctionalInterface
public interface TokenRequester {
    TokenRequest request(String namespace, String serviceAccount, TokenRequest request) throws ObjectException;
}
