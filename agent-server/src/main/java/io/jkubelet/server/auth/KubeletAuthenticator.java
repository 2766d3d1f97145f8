package io.jkubelet.server.auth;

import io.jkubelet.server.http.Request;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The kubelet's authenticator chain (the apiserver library's {@code DelegatingAuthenticatorConfig}):
 * x509 client certificates, then bearer tokens through the apiserver; the first that finds a user wins,
 * and that user is added to {@code system:authenticated}. When anonymous requests are enabled, a request
 * no authenticator recognised is {@code system:anonymous}; one that carried an invalid credential is
 * still refused (a bad certificate does not fall back to anonymous).
 */
public final class KubeletAuthenticator implements Authenticator {

    private final List<Authenticator> authenticators;
    private final boolean anonymous;

    /**
     * @param authenticators the credential authenticators, in order
     * @param anonymous whether requests without a recognised credential are let in as anonymous
     * @throws IllegalArgumentException when there is no authenticator and anonymous is off, as upstream
     *     refuses to start with "No authentication method configured"
     */
    public KubeletAuthenticator(List<Authenticator> authenticators, boolean anonymous) {
        if (authenticators.isEmpty() && !anonymous) {
            throw new IllegalArgumentException("No authentication method configured");
        }
        this.authenticators = List.copyOf(authenticators);
        this.anonymous = anonymous;
    }

    @Override
    public Optional<UserInfo> authenticate(Request request, List<X509Certificate> peerCertificates) throws AuthenticationException {
        List<String> errors = new ArrayList<>();
        for (Authenticator authenticator : authenticators) {
            try {
                Optional<UserInfo> user = authenticator.authenticate(request, peerCertificates);
                if (user.isPresent()) {
                    return Optional.of(user.get().withAuthenticatedGroup());
                }
            } catch (AuthenticationException e) {
                errors.add(e.getMessage());
            }
        }
        if (!errors.isEmpty()) {
            throw new AuthenticationException(errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
        }
        return anonymous ? Optional.of(UserInfo.anonymous()) : Optional.empty();
    }
}
