package io.jkubelet.cmd.e2e;

import io.jkubelet.server.streaming.ChannelClient;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Streaming sessions ({@code /exec}, {@code /attach}, {@code /portForward}) with an agent's secure port as kubectl
 * opens them, over WebSocket with Kubernetes' channel protocols, trusting the agent's self-signed certificate.
 */
final class SecureStreams {
    private SecureStreams() {}

    /** A WebSocket session with the agent's secure port at {@code pathAndQuery}, speaking {@code subprotocol}. */
    static ChannelClient connect(Agent agent, String pathAndQuery, String subprotocol) throws Exception {
        return ChannelClient.connect(https(), URI.create("wss://127.0.0.1:" + agent.port + pathAndQuery), subprotocol);
    }

    /** The query of a command: one {@code command=} parameter per argument, as kubectl sends it. */
    static String command(String... argv) {
        return Stream.of(argv).map(a -> "command=" + URLEncoder.encode(a, StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
    }

    /** A client that trusts any server certificate, as {@code curl -k}: the agent's is self-signed for its node name. */
    static HttpClient https() throws Exception {
        return HttpClient.newBuilder().sslContext(tls()).connectTimeout(Duration.ofSeconds(10)).build();
    }

    static SSLContext tls() throws Exception {
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, new TrustManager[] {new TrustAll()}, null);
        return tls;
    }

    private static final class TrustAll extends X509ExtendedTrustManager {
        @Override public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}
        @Override public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}
        @Override public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}
        @Override public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}
        @Override public void checkClientTrusted(X509Certificate[] chain, String authType) {}
        @Override public void checkServerTrusted(X509Certificate[] chain, String authType) {}
        @Override public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
