package io.jkubelet.server.auth;

import io.jkubelet.server.http.Request;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;

/**
 * Finds who made a request (the apiserver library's {@code authenticator.Request}): a user, no opinion
 * (the request carries no credential of this kind), or an error (it carries one that does not hold).
 * May block (a webhook call).
 */
@FunctionalInterface
public interface Authenticator {

    /**
     * @param peerCertificates the client's TLS chain, leaf first; empty when none was sent
     * @return the user, or empty when this authenticator has no opinion
     * @throws AuthenticationException when the request's credential is invalid
     */
    Optional<UserInfo> authenticate(Request request, List<X509Certificate> peerCertificates) throws AuthenticationException;
}
