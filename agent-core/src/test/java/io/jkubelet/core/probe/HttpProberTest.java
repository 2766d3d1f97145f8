package io.jkubelet.core.probe;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HttpProberTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final HttpProber prober = new HttpProber();
    private HttpServer server;
    private HttpServer otherPort;
    private final Map<String, List<String>> lastHeaders = new ConcurrentHashMap<>();
    private final AtomicInteger loopHits = new AtomicInteger();

    @BeforeEach
    void startServers() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        otherPort = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/ok", ex -> {
            lastHeaders.clear();
            ex.getRequestHeaders().forEach(lastHeaders::put);
            respond(ex, 200, "healthy");
        });
        server.createContext("/fail", ex -> respond(ex, 503, "overloaded, do not show me"));
        server.createContext("/moved-here", ex -> redirect(ex, "/ok"));
        server.createContext("/moved-port", ex -> redirect(ex, "http://127.0.0.1:" + otherPort.getAddress().getPort() + "/ok"));
        server.createContext("/moved-away", ex -> redirect(ex, "http://localhost:" + port() + "/ok"));
        server.createContext("/not-modified", ex -> respond(ex, 304, ""));
        server.createContext("/loop", ex -> {
            loopHits.incrementAndGet();
            redirect(ex, "/loop");
        });
        server.createContext("/big-chunked", ex -> {
            ex.sendResponseHeaders(200, 0); // chunked
            try (var out = ex.getResponseBody()) {
                out.write("x".repeat(20 * 1024).getBytes(StandardCharsets.UTF_8));
            } catch (IOException ignored) {
                // the prober stops reading at 10 KiB and closes
            }
        });
        server.createContext("/big-fixed", ex -> {
            try {
                respond(ex, 200, "y".repeat(20 * 1024));
            } catch (IOException ignored) {
                // as above
            }
        });
        otherPort.createContext("/ok", ex -> respond(ex, 200, "other port"));
        server.start();
        otherPort.start();
    }

    @AfterEach
    void stopServers() {
        server.stop(0);
        otherPort.stop(0);
    }

    private int port() {
        return server.getAddress().getPort();
    }

    private HttpGetRequest get(String path) {
        return get("http", port(), path);
    }

    private static HttpGetRequest get(String scheme, int port, String path) {
        return new HttpGetRequest(scheme, "127.0.0.1", port, path, "127.0.0.1:" + port,
                List.of(new HttpHeader("User-Agent", "kube-probe/1.30"), new HttpHeader("Accept", "*/*")));
    }

    private static void respond(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (var out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void redirect(HttpExchange ex, String location) throws IOException {
        ex.getResponseHeaders().add("Location", location);
        respond(ex, 302, "see " + location);
    }

    @Test
    void twoHundredIsSuccessWithTheBody() {
        ProbeOutcome outcome = prober.probe(get("/ok"), TIMEOUT);

        assertThat(outcome).isEqualTo(ProbeOutcome.success("healthy"));
        assertThat(lastHeaders).containsEntry("User-agent", List.of("kube-probe/1.30"))
                .containsEntry("Accept", List.of("*/*"))
                .containsEntry("Connection", List.of("close"))
                .doesNotContainKey("Accept-encoding");
    }

    @Test
    void anUnboundedTimeoutAsHooksGiveIsServed() throws Exception {
        // postStart hooks run without a timeout (HandlerRunner.NO_TIMEOUT): the deadline must not overflow.
        assertThat(prober.get(get("/ok"), io.jkubelet.core.lifecycle.HandlerRunner.NO_TIMEOUT).statusCode()).isEqualTo(200);
    }

    @Test
    void anErrorStatusFailsWithoutShowingTheBody() {
        assertThat(prober.probe(get("/fail"), TIMEOUT))
                .isEqualTo(ProbeOutcome.failure("HTTP probe failed with statuscode: 503"));
    }

    @Test
    void redirectsToTheSameHostAreFollowedEvenToAnotherPort() throws IOException {
        assertThat(prober.probe(get("/moved-here"), TIMEOUT)).isEqualTo(ProbeOutcome.success("healthy"));
        assertThat(lastHeaders).containsEntry("Referer", List.of("http://127.0.0.1:" + port() + "/moved-here"));

        HttpGetResponse response = prober.get(get("/moved-port"), TIMEOUT);
        assertThat(response.body()).isEqualTo("other port");
        assertThat(response.url()).isEqualTo("http://127.0.0.1:" + otherPort.getAddress().getPort() + "/ok");
    }

    @Test
    void aRedirectToAnotherHostIsNotFollowedAndWarns() {
        ProbeOutcome outcome = prober.probe(get("/moved-away"), TIMEOUT);

        assertThat(outcome).isEqualTo(ProbeOutcome.warning(
                "Probe terminated redirects, Response body: see http://localhost:" + port() + "/ok"));
    }

    @Test
    void anotherThreeHundredStatusIsAWarning() {
        assertThat(prober.probe(get("/not-modified"), TIMEOUT).result()).isEqualTo(ProbeResult.WARNING);
    }

    @Test
    void redirectsStopAfterTen() {
        ProbeOutcome outcome = prober.probe(get("/loop"), TIMEOUT);

        assertThat(outcome).isEqualTo(ProbeOutcome.failure("Get \"/loop\": stopped after 10 redirects"));
        assertThat(loopHits).hasValue(10);
    }

    @Test
    void atMostTenKibibytesOfTheBodyAreRead() {
        assertThat(prober.probe(get("/big-chunked"), TIMEOUT).output()).hasSize(HttpProber.MAX_RESP_BODY_LENGTH)
                .matches("x+");
        assertThat(prober.probe(get("/big-fixed"), TIMEOUT).output()).hasSize(HttpProber.MAX_RESP_BODY_LENGTH)
                .matches("y+");
    }

    @Test
    void aRefusedConnectionIsAFailureNamingTheAddress() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }

        ProbeOutcome outcome = prober.probe(get("http", closed, "/healthz"), TIMEOUT);

        assertThat(outcome).isEqualTo(ProbeOutcome.failure("Get \"http://127.0.0.1:" + closed
                + "/healthz\": dial tcp 127.0.0.1:" + closed + ": connect: connection refused"));
    }

    @Test
    void aServerThatNeverAnswersTimesOut() throws IOException {
        try (RawHttpServer hanging = new RawHttpServer(null)) {
            ProbeOutcome outcome = prober.probe(get("http", hanging.port(), "/"), Duration.ofMillis(300));

            assertThat(outcome).isEqualTo(ProbeOutcome.failure("Get \"http://127.0.0.1:" + hanging.port()
                    + "/\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"));
        }
    }

    @Test
    void sendsTheHeadersInOrderWithTheGivenHost() throws Exception {
        try (RawHttpServer raw = new RawHttpServer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")) {
            HttpGetRequest request = new HttpGetRequest("http", "127.0.0.1", raw.port(), "/h?x=1", "svc.example",
                    List.of(new HttpHeader("Accept", "*/*"), new HttpHeader("X-B", "2"), new HttpHeader("X-A", "1")));

            assertThat(prober.probe(request, TIMEOUT)).isEqualTo(ProbeOutcome.success("ok"));
            assertThat(raw.heads()).containsExactly(List.of("GET /h?x=1 HTTP/1.1", "Host: svc.example",
                    "Accept: */*", "X-B: 2", "X-A: 1", "Connection: close"));
        }
    }

    @Test
    void aMalformedResponseIsAFailure() throws Exception {
        try (RawHttpServer raw = new RawHttpServer("SSH-2.0-OpenSSH\r\n\r\n")) {
            assertThat(prober.probe(get("http", raw.port(), "/"), TIMEOUT).output())
                    .isEqualTo("Get \"http://127.0.0.1:" + raw.port() + "/\": malformed HTTP response \"SSH-2.0-OpenSSH\"");
        }
    }

    @Test
    void httpsDoesNotVerifyTheCertificateOrHostName(@TempDir Path dir) throws Exception {
        HttpsServer https = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        https.setHttpsConfigurator(new HttpsConfigurator(selfSigned(dir)));
        https.createContext("/secure", ex -> respond(ex, 200, "tls ok"));
        https.start();
        try {
            int p = https.getAddress().getPort();
            assertThat(prober.probe(get("https", p, "/secure"), TIMEOUT)).isEqualTo(ProbeOutcome.success("tls ok"));
            // and the JVM-wide default still verifies: the insecure trust stays inside the prober
            assertThatThrownBy(() -> javax.net.ssl.HttpsURLConnection.getDefaultSSLSocketFactory()
                    .createSocket("127.0.0.1", p).getOutputStream().write(1))
                    .isInstanceOf(javax.net.ssl.SSLHandshakeException.class);
        } finally {
            https.stop(0);
        }
    }

    /** A throw-away EC key and certificate for CN=not-this-host, made with the JDK's keytool. */
    private static SSLContext selfSigned(Path dir) throws Exception {
        Path keystore = dir.resolve("probe.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "probe", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=not-this-host", "-validity", "2", "-keystore", keystore.toString(),
                "-storetype", "PKCS12", "-storepass", "changeit", "-keypass", "changeit")
                .redirectErrorStream(true).start();
        String out = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor()).as("keytool: %s", out).isZero();
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            ks.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "changeit".toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), null, null);
        return context;
    }
}
