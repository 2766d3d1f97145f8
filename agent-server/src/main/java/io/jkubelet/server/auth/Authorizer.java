package io.jkubelet.server.auth;

/** Decides whether a user may make a request (the apiserver library's {@code authorizer.Authorizer}). May block. */
@FunctionalInterface
public interface Authorizer {

    /** An authorizer's answer. */
    enum Decision { ALLOW, DENY, NO_OPINION }

    /** @throws Exception when no decision can be made; the request then gets 500 */
    Decision authorize(RequestAttributes attributes) throws Exception;

    /** {@code AlwaysAllow}. */
    Authorizer ALWAYS_ALLOW = attributes -> Decision.ALLOW;
}
