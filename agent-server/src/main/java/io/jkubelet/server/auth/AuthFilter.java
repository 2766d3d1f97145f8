package io.jkubelet.server.auth;

import io.jkubelet.server.http.Request;
import io.jkubelet.server.http.RequestFilter;
import io.jkubelet.server.http.Response;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The secure server's filter (upstream {@code InstallAuthFilter}): authenticate, then authorize against
 * this node, answering as the kubelet does: 401 {@code Unauthorized}; 403 {@code Forbidden (user=…,
 * verb=…, resource=…, subresource=…)}; 500 {@code Authorization error (…)} when the authorizer fails.
 */
public final class AuthFilter implements RequestFilter {

    private static final Logger log = LoggerFactory.getLogger(AuthFilter.class);

    private final Authenticator authenticator;
    private final Authorizer authorizer;
    private final String nodeName;

    public AuthFilter(Authenticator authenticator, Authorizer authorizer, String nodeName) {
        this.authenticator = authenticator;
        this.authorizer = authorizer;
        this.nodeName = nodeName;
    }

    @Override
    public Response filter(Request request, List<X509Certificate> peerCertificates) {
        Optional<UserInfo> user;
        try {
            user = authenticator.authenticate(request, peerCertificates);
        } catch (AuthenticationException e) {
            log.info("Unable to authenticate the request from {} due to an error: {}", request.remoteAddress(), e.getMessage());
            return Response.restfulError(401, "Unauthorized");
        }
        if (user.isEmpty()) {
            return Response.restfulError(401, "Unauthorized");
        }
        RequestAttributes attrs = RequestAttributes.of(user.get(), request, nodeName);
        Authorizer.Decision decision;
        try {
            decision = authorizer.authorize(attrs);
        } catch (Exception e) {
            log.error("Authorization error user={} verb={} resource={} subresource={}", attrs.user().name(), attrs.verb(),
                    attrs.resource(), attrs.subresource(), e);
            return Response.restfulError(500, describe("Authorization error", attrs));
        }
        if (decision != Authorizer.Decision.ALLOW) {
            log.debug("Forbidden user={} verb={} resource={} subresource={}", attrs.user().name(), attrs.verb(),
                    attrs.resource(), attrs.subresource());
            return Response.restfulError(403, describe("Forbidden", attrs));
        }
        return null;
    }

    private static String describe(String what, RequestAttributes attrs) {
        return what + " (user=" + attrs.user().name() + ", verb=" + attrs.verb() + ", resource=" + attrs.resource()
                + ", subresource=" + attrs.subresource() + ")";
    }
}
