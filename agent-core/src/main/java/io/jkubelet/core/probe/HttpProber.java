package io.jkubelet.core.probe;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code httpGet} handler (upstream {@code pkg/probe/http}), also used to run lifecycle hooks.
 *
 * <p>One GET, bounded as a whole (redirects and body included) by the timeout. 200–399 is success;
 * redirects (301, 302, 303, 307, 308 with a {@code Location}) are followed only to the same host name
 * (upstream {@code RedirectChecker(followNonLocalRedirects=false)}), and after 10 redirects the probe fails;
 * a redirect that is not followed is a {@link ProbeResult#WARNING}. At most 10 KiB of the body is read.
 * TLS certificates and host names are not verified. Connection errors and timeouts are failures, not
 * errors, as upstream ("convert errors into failures to catch timeouts").
 *
 * <p>Why a small HTTP/1.1 client of our own instead of {@code java.net.http.HttpClient}: the JDK client
 * refuses to send a {@code Host} header given in {@code httpHeaders} (unless a JVM-wide system property is
 * set), always sends a {@code User-Agent} (upstream sends none when it is given empty), pools connections
 * (upstream disables keep-alive, so that every probe tests that the server still accepts connections)
 * and runs a selector thread per client. A probe needs exactly one request on one connection; blocking
 * I/O on the probe worker's (virtual) thread does that with no extra thread. Netty is kept out of
 * agent-core.
 *
 * <p>Thread-safe: each call uses its own connection.
 */
public final class HttpProber {
    private static final Logger log = LoggerFactory.getLogger(HttpProber.class);

    /** Upstream {@code maxRespBodyLength}: enough for a health page, bounded for a misbehaving server. */
    public static final int MAX_RESP_BODY_LENGTH = 10 * 1024;
    /** Go's default redirect limit, which upstream keeps for same-host redirects. */
    public static final int MAX_REDIRECTS = 10;
    /** The longest wait any request gets, whatever its caller asks. */
    static final Duration MAX_TIMEOUT = Duration.ofDays(1);

    private static final Set<Integer> FOLLOWED_REDIRECTS = Set.of(301, 302, 303, 307, 308);

    private final SSLSocketFactory tls;

    public HttpProber() {
        this.tls = InsecureTls.socketFactory();
    }

    /**
     * Runs the probe. Never throws for what the server or network does: every such problem is a
     * {@link ProbeResult#FAILURE} whose output says what happened ({@code Get "http://…": dial tcp …:
     * connect: connection refused}, {@code HTTP probe failed with statuscode: 503}).
     */
    public ProbeOutcome probe(HttpGetRequest request, Duration timeout) {
        HttpGetResponse response;
        try {
            response = get(request, timeout);
        } catch (IOException e) {
            log.debug("HTTP probe {} failed: {}", request, e.getMessage());
            return ProbeOutcome.failure(e.getMessage());
        }
        int code = response.statusCode();
        if (code >= 200 && code < 400) {
            if (code >= 300) {
                log.debug("Probe terminated redirects for {}: status {}", response.url(), code);
                return ProbeOutcome.warning("Probe terminated redirects, Response body: " + response.body());
            }
            return ProbeOutcome.success(response.body());
        }
        // Upstream keeps the body out of this user-facing message on purpose (kubernetes#99425).
        log.debug("HTTP probe {} failed with status {}, body: {}", response.url(), code, response.body());
        return ProbeOutcome.failure("HTTP probe failed with statuscode: " + code);
    }

    /**
     * Performs the GET, following same-host redirects, and returns the final response whatever its status
     * (a lifecycle hook ignores the status code, as upstream's {@code runHTTPHandler} does).
     *
     * @throws IOException with Go's wording ({@code Get "<url>": <cause>}) when no response could be had:
     *     connection refused, timeout, TLS failure, malformed response, too many redirects
     */
    public HttpGetResponse get(HttpGetRequest request, Duration timeout) throws IOException {
        // Hooks pass an unbounded timeout (HandlerRunner.NO_TIMEOUT): cap it so the deadline cannot overflow.
        long deadline = System.nanoTime() + Math.max(1, timeout.compareTo(MAX_TIMEOUT) > 0 ? MAX_TIMEOUT.toNanos() : timeout.toNanos());
        List<HttpGetRequest> via = new ArrayList<>();
        HttpGetRequest current = request;
        while (true) {
            Http1Exchange.Response response = once(current, deadline);
            via.add(current);
            String location = response.header("Location");
            if (!FOLLOWED_REDIRECTS.contains(response.statusCode()) || location == null || location.isEmpty()) {
                return toResponse(response, current);
            }
            HttpGetRequest next = redirect(request, current, location);
            if (!next.host().equals(request.host())) {
                // Upstream's http.ErrUseLastResponse: the 3xx itself is the answer.
                return toResponse(response, current);
            }
            if (via.size() >= MAX_REDIRECTS) {
                throw new IOException("Get " + GoFormat.quote(location) + ": stopped after " + MAX_REDIRECTS
                        + " redirects");
            }
            current = next;
        }
    }

    private Http1Exchange.Response once(HttpGetRequest request, long deadline) throws IOException {
        Socket socket = null;
        try {
            socket = ProbeDialer.dial(request.host(), request.port(), remaining(deadline));
            if (request.scheme().equals("https")) {
                socket = handshake(socket, request, deadline);
            }
            return new Http1Exchange(socket, deadline).get(request, MAX_RESP_BODY_LENGTH);
        } catch (Http1Exchange.BodyTimeoutException e) {
            throw new IOException("Get " + GoFormat.quote(request.url()) + ": " + e.getMessage(), e);
        } catch (SocketTimeoutException e) {
            throw new SocketTimeoutException("Get " + GoFormat.quote(request.url())
                    + ": context deadline exceeded (Client.Timeout exceeded while awaiting headers)");
        } catch (IOException e) {
            throw new IOException("Get " + GoFormat.quote(request.url()) + ": " + e.getMessage(), e);
        } finally {
            if (socket != null) {
                ProbeDialer.closeQuietly(socket);
            }
        }
    }

    private SSLSocket handshake(Socket plain, HttpGetRequest request, long deadline) throws IOException {
        SSLSocket ssl = (SSLSocket) tls.createSocket(plain, request.host(), request.port(), true);
        ssl.setSoTimeout(ProbeDialer.timeoutMillis(remaining(deadline)));
        try {
            ssl.startHandshake();
        } catch (SocketTimeoutException e) {
            ProbeDialer.closeQuietly(ssl);
            throw e;
        } catch (SSLException e) {
            ProbeDialer.closeQuietly(ssl);
            throw new IOException("tls: " + e.getMessage(), e);
        }
        return ssl;
    }

    /** The request for a {@code Location}, as Go's client builds it from the original request. */
    private static HttpGetRequest redirect(HttpGetRequest original, HttpGetRequest current, String location)
            throws IOException {
        URI target;
        boolean relative;
        try {
            URI locationUri = new URI(location);
            relative = !locationUri.isAbsolute();
            target = new URI(current.url()).resolve(locationUri);
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IOException("Get " + GoFormat.quote(current.url()) + ": failed to parse Location header "
                    + GoFormat.quote(location) + ": " + e.getMessage(), e);
        }
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IOException("Get " + GoFormat.quote(location) + ": unsupported protocol scheme "
                    + GoFormat.quote(scheme));
        }
        String host = target.getHost();
        if (host == null) {
            throw new IOException("Get " + GoFormat.quote(location) + ": no Host in request URL");
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = target.getPort() > 0 ? target.getPort() : scheme.equals("https") ? 443 : 80;
        String path = target.getRawPath() == null || target.getRawPath().isEmpty() ? "/" : target.getRawPath();
        String requestTarget = target.getRawQuery() == null ? path : path + "?" + target.getRawQuery();

        // Go keeps a custom Host header only across a relative redirect.
        String defaultHost = GoFormat.joinHostPort(original.host(), original.port());
        String hostHeader = relative && !original.hostHeader().equals(defaultHost)
                ? original.hostHeader() : GoFormat.joinHostPort(host, port);

        // The original headers, plus a Referer naming the previous URL unless going from https to http.
        List<HttpHeader> headers = new ArrayList<>();
        for (HttpHeader h : original.headers()) {
            if (!h.name().equals("Referer")) {
                headers.add(h);
            }
        }
        String explicitReferer = original.header("Referer");
        if (explicitReferer != null) {
            headers.add(new HttpHeader("Referer", explicitReferer));
        } else if (!(current.scheme().equals("https") && scheme.equals("http"))) {
            headers.add(new HttpHeader("Referer", current.url()));
        }
        return new HttpGetRequest(scheme, host, port, requestTarget, hostHeader, headers);
    }

    private static HttpGetResponse toResponse(Http1Exchange.Response response, HttpGetRequest request) {
        return new HttpGetResponse(response.statusCode(), new String(response.body(), StandardCharsets.UTF_8),
                request.url());
    }

    private static Duration remaining(long deadline) throws SocketTimeoutException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new SocketTimeoutException("deadline passed");
        }
        return Duration.ofNanos(left);
    }
}
