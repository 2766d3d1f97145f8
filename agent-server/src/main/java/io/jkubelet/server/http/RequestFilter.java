package io.jkubelet.server.http;

import java.security.cert.X509Certificate;
import java.util.List;

/**
 * Runs before routing on every request of a server (go-restful's container filter, which the kubelet
 * uses for authentication and authorization): it lets the request through or answers it itself, so that
 * an unauthenticated request to an unknown path gets 401, not 404, as on the kubelet.
 *
 * <p>It runs on a virtual thread and may block (a webhook call). An exception it throws becomes a 500.
 */
@FunctionalInterface
public interface RequestFilter {

    /**
     * @param peerCertificates the client's TLS certificate chain, leaf first; empty when it sent none
     * @return null to let the request through, else the response that answers it
     */
    Response filter(Request request, List<X509Certificate> peerCertificates) throws Exception;
}
