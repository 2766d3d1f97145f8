package io.jkubelet.server.streaming;

import io.jkubelet.server.http.Request;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The client's upgrade request as the kubelet's upgrade-aware proxy sends it on to the runtime's streaming server
 * (Go's {@code Request.Write} of a clone): the client's method and headers ({@code Connection}, {@code Upgrade},
 * {@code X-Stream-Protocol-Version}, {@code Sec-WebSocket-*} among them), its {@code Host}, the runtime URL's path
 * and query (the one-time token; the session's options are in it, not in the client's query), and the client's
 * address appended to {@code X-Forwarded-For}.
 */
final class ProxiedRequest {

    /** Headers Go's request writer writes itself rather than from the header map. */
    private static final Set<String> WRITTEN_APART = Set.of("host", "content-length", "transfer-encoding", "trailer");

    private ProxiedRequest() {}

    static byte[] encode(Request request, URI location) {
        StringBuilder head = new StringBuilder();
        String target = location.getRawPath() == null || location.getRawPath().isEmpty() ? "/" : location.getRawPath();
        if (location.getRawQuery() != null) {
            target += "?" + location.getRawQuery();
        }
        head.append(request.method()).append(' ').append(target).append(" HTTP/1.1\r\n");
        String host = request.header("Host");
        head.append("Host: ").append(host != null ? host : location.getRawAuthority()).append("\r\n");
        String forwardedFor = null;
        for (Map.Entry<String, List<String>> header : request.headers().entrySet()) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (WRITTEN_APART.contains(name)) {
                continue;
            }
            if (name.equals("x-forwarded-for")) {
                forwardedFor = String.join(", ", header.getValue());
                continue;
            }
            for (String value : header.getValue()) {
                head.append(canonical(name)).append(": ").append(value).append("\r\n");
            }
        }
        if (request.remoteAddress() != null && request.remoteAddress().getAddress() != null) {
            String client = request.remoteAddress().getAddress().getHostAddress();
            forwardedFor = forwardedFor == null ? client : forwardedFor + ", " + client;
        }
        if (forwardedFor != null) {
            head.append("X-Forwarded-For: ").append(forwardedFor).append("\r\n");
        }
        byte[] body = request.body();
        if (body.length > 0 || Set.of("POST", "PUT", "PATCH").contains(request.method())) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** Go's {@code CanonicalMIMEHeaderKey}: each dash-separated word capitalized. */
    static String canonical(String name) {
        StringBuilder out = new StringBuilder(name.length());
        boolean upper = true;
        for (char c : name.toCharArray()) {
            out.append(upper ? Character.toUpperCase(c) : Character.toLowerCase(c));
            upper = c == '-';
        }
        return out.toString();
    }
}
