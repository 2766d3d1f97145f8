package io.jkubelet.server.auth;

import java.util.Optional;

/**
 * The apiserver's TokenReview API as the bearer-token authenticator needs it; implemented over the
 * Kubernetes client where the kubelet has one.
 */
@FunctionalInterface
public interface TokenReviewer {

    /**
     * @return the token's user when the apiserver says it is authenticated, else empty
     * @throws Exception when the review cannot be made (the request then gets 401)
     */
    Optional<UserInfo> review(String token) throws Exception;
}
