package io.jkubelet.server.auth;

import io.jkubelet.core.apis.config.KubeletAuthentication;
import io.jkubelet.core.apis.config.KubeletAuthorization;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Builds the secure server's {@link AuthFilter} from {@code authentication} and {@code authorization}
 * (upstream {@code BuildAuth}). The webhook modes need the apiserver: without one (standalone) they are
 * refused at start-up with upstream's messages, never quietly opened.
 */
public final class KubeletAuth {

    private KubeletAuth() {}

    /**
     * @param clientCAs the certificates of {@code authentication.x509.clientCAFile}, empty when unset
     * @param tokenReviewer the apiserver's TokenReview, empty in standalone mode
     * @param accessReviewer the apiserver's SubjectAccessReview, empty in standalone mode
     * @throws AuthConfigException when the settings cannot be served as asked
     */
    public static AuthFilter filter(KubeletAuthentication authn, KubeletAuthorization authz, String nodeName,
            List<X509Certificate> clientCAs, Optional<TokenReviewer> tokenReviewer,
            Optional<SubjectAccessReviewer> accessReviewer, Clock clock) throws AuthConfigException {
        List<Authenticator> authenticators = new ArrayList<>();
        if (!clientCAs.isEmpty()) {
            authenticators.add(new X509Authenticator(clientCAs, clock));
        }
        if (Boolean.TRUE.equals(authn.webhook().enabled())) {
            if (tokenReviewer.isEmpty()) {
                throw new AuthConfigException("no client provided, cannot use webhook authentication "
                        + "(authentication.webhook.enabled / --authentication-token-webhook needs --kubeconfig)");
            }
            authenticators.add(new TokenWebhookAuthenticator(tokenReviewer.get(), authn.webhook().cacheTTL(), clock));
        }
        boolean anonymous = Boolean.TRUE.equals(authn.anonymous().enabled());
        Authenticator authenticator;
        try {
            authenticator = new KubeletAuthenticator(authenticators, anonymous);
        } catch (IllegalArgumentException e) {
            throw new AuthConfigException(e.getMessage() + " (enable authentication.x509.clientCAFile, "
                    + "authentication.webhook or authentication.anonymous)");
        }
        Authorizer authorizer = switch (authz.mode()) {
            case KubeletAuthorization.MODE_ALWAYS_ALLOW -> Authorizer.ALWAYS_ALLOW;
            case KubeletAuthorization.MODE_WEBHOOK -> {
                if (accessReviewer.isEmpty()) {
                    throw new AuthConfigException("no client provided, cannot use webhook authorization "
                            + "(authorization.mode Webhook / --authorization-mode=Webhook needs --kubeconfig)");
                }
                yield new WebhookAuthorizer(accessReviewer.get(), authz.webhook().cacheAuthorizedTTL(),
                        authz.webhook().cacheUnauthorizedTTL(), clock);
            }
            default -> throw new AuthConfigException("unknown authorization mode " + authz.mode());
        };
        return new AuthFilter(authenticator, authorizer, nodeName);
    }
}
