package io.jkubelet.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpServerTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2024-03-05T06:07:08Z"), ZoneOffset.UTC);

    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch slowStarted = new CountDownLatch(1);
    private final AtomicInteger failures = new AtomicInteger();
    private HttpServer server;
    private HttpClient client;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.start(config(), router());
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.close();
        client.close();
    }

    private static HttpServerConfig config() {
        return HttpServerConfig.kubeletDefaults("test", InetAddress.getLoopbackAddress(), 0)
                .withMaxContentLength(1024)
                .withClock(CLOCK);
    }

    private Router router() {
        return Router.builder()
                .get("/hello", r -> Response.text(200, "hello " + r.queryParam("name")))
                .get("/thread", r -> Response.text(200, Thread.currentThread().getName()))
                .get("/blocking-thread", Handler.blocking(r -> Response.text(200, "virtual=" + Thread.currentThread().isVirtual())))
                .get("/items/{id}", r -> Response.text(200, "item " + r.pathParam("id")))
                .route("POST", "/echo", r -> Response.of(200, "application/octet-stream", r.body()))
                .any("/tree/", r -> Response.text(200, "tree " + r.path()))
                .get("/boom", r -> {
                    failures.incrementAndGet();
                    throw new IllegalStateException("handler bug");
                })
                .get("/slow", Handler.blocking(r -> {
                    slowStarted.countDown();
                    release.await(30, TimeUnit.SECONDS);
                    return Response.text(200, "slow done");
                }))
                .build();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).GET().build());
    }

    private HttpResponse<String> send(HttpRequest request) throws Exception {
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    @Test
    void servesARouteWithDateAndLength() throws Exception {
        HttpResponse<String> response = get("/hello?name=node");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("hello node");
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
        assertThat(response.headers().firstValue("content-length")).hasValue("10");
        assertThat(response.headers().firstValue("date")).hasValue("Tue, 05 Mar 2024 06:07:08 GMT");
    }

    @Test
    void unknownPathIsGoMux404() throws Exception {
        HttpResponse<String> response = get("/nothing/here");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).isEqualTo("404 page not found\n");
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
        assertThat(response.headers().firstValue("x-content-type-options")).hasValue("nosniff");
    }

    @Test
    void wrongMethodIsRestful405WithAllow() throws Exception {
        HttpResponse<String> response =
                send(HttpRequest.newBuilder(uri("/hello")).DELETE().build());

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.body()).isEqualTo("405: Method Not Allowed");
        assertThat(response.headers().firstValue("allow")).hasValue("GET");
    }

    @Test
    void pathBelowARouteRootIsRestful404() throws Exception {
        HttpResponse<String> response = get("/hello/extra");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).isEqualTo("404: Page Not Found");
    }

    @Test
    void pathParametersAndSubtreesAndRedirect() throws Exception {
        assertThat(get("/items/42").body()).isEqualTo("item 42");
        assertThat(get("/tree/a/b").body()).isEqualTo("tree /tree/a/b");
        HttpResponse<String> redirect = get("/tree?x=1");
        assertThat(redirect.statusCode()).isEqualTo(301);
        assertThat(redirect.headers().firstValue("location")).hasValue("/tree/?x=1");
    }

    @Test
    void quickHandlersRunOnTheEventLoopAndBlockingOnesOnVirtualThreads() throws Exception {
        assertThat(get("/thread").body()).startsWith("jk-test-io");
        assertThat(get("/blocking-thread").body()).isEqualTo("virtual=true");
    }

    @Test
    void requestBodyReachesTheHandlerAndAnOversizedOneGets413() throws Exception {
        HttpResponse<String> echoed =
                send(HttpRequest.newBuilder(uri("/echo")).POST(HttpRequest.BodyPublishers.ofString("payload")).build());
        assertThat(echoed.body()).isEqualTo("payload");

        HttpResponse<String> tooLarge =
                send(HttpRequest.newBuilder(uri("/echo")).POST(HttpRequest.BodyPublishers.ofString("x".repeat(2048))).build());
        assertThat(tooLarge.statusCode()).isEqualTo(413);
    }

    @Test
    void aThrowingHandlerGets500AndTheConnectionKeepsServing() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /boom HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.RawResponse boom = raw.read();
            raw.send("GET /hello?name=after HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.RawResponse after = raw.read();

            assertThat(boom.status()).isEqualTo(500);
            assertThat(boom.body()).isEqualTo("Internal Server Error\n");
            assertThat(after.status()).isEqualTo(200);
            assertThat(after.body()).isEqualTo("hello after");
        }
        assertThat(failures).hasValue(1);
    }

    @Test
    void keepAliveServesSeveralRequestsOnOneConnectionAndPipelinedOnesInOrder() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /hello?name=1 HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(raw.read().body()).isEqualTo("hello 1");
            // Three at once: the blocking one in the middle must not let the last overtake it.
            raw.send("GET /hello?name=2 HTTP/1.1\r\nHost: x\r\n\r\nGET /blocking-thread HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /hello?name=3 HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(raw.read().body()).isEqualTo("hello 2");
            assertThat(raw.read().body()).isEqualTo("virtual=true");
            RawHttp.RawResponse third = raw.read();
            assertThat(third.body()).isEqualTo("hello 3");
            assertThat(third.headers()).doesNotContainKey("connection");
        }
    }

    @Test
    void connectionCloseIsHonoured() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /hello?name=x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            RawHttp.RawResponse response = raw.read();
            assertThat(response.headers()).containsEntry("connection", "close");
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void headRequestOnAnyRouteGetsHeadersWithoutBody() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("HEAD /tree/x HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.RawResponse head = raw.read(true);
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.headers()).containsEntry("content-length", "12");
            // Nothing of the body followed: the next response starts right away.
            raw.send("GET /hello?name=next HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(raw.read().body()).isEqualTo("hello next");
        }
    }

    @Test
    void malformedRequestGets400AndTheConnectionIsClosed() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /hello HTTP/9.Z\r\nHost: x\r\n\r\n");
            RawHttp.RawResponse response = raw.read();
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.body()).isEqualTo("400 Bad Request");
            assertThat(raw.closedByServer()).isTrue();
        }
        assertThat(get("/hello?name=still").body()).isEqualTo("hello still");
    }

    @Test
    void http11RequestWithoutHostGets400() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /hello HTTP/1.1\r\n\r\n");
            RawHttp.RawResponse response = raw.read();
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.body()).isEqualTo("400 Bad Request: missing required Host header");
        }
    }

    @Test
    void headerBlockOverOneMebibyteGets431() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            String big = "x".repeat(HttpServerConfig.KUBELET_MAX_HEADER_BYTES + 4096 + 16);
            raw.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: " + big + "\r\n\r\n");
            RawHttp.RawResponse response = raw.read();
            assertThat(response.status()).isEqualTo(431);
            assertThat(response.body()).isEqualTo("431 Request Header Fields Too Large");
            assertThat(response.headers()).containsEntry("connection", "close");
        }
        try (RawHttp raw = new RawHttp(server.port())) {
            String justUnder = "x".repeat(HttpServerConfig.KUBELET_MAX_HEADER_BYTES / 2);
            raw.send("GET /hello?name=ok HTTP/1.1\r\nHost: x\r\nX-Big: " + justUnder + "\r\n\r\n");
            assertThat(raw.read().status()).isEqualTo(200);
        }
    }

    @Test
    void idleConnectionIsClosedByTheServer() throws Exception {
        try (HttpServer quick = HttpServer.start(config().withIdleTimeout(Duration.ofMillis(200)), router());
                RawHttp raw = new RawHttp(quick.port())) {
            raw.send("GET /hello?name=x HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(raw.read().status()).isEqualTo(200);
            // No more requests: the server hangs up (the read blocks until it does, 30 s at most).
            assertThat(raw.closedByServer()).isTrue();
        }
    }

    @Test
    void manyConcurrentClientsAllGetAnswers() throws Exception {
        int clients = 32;
        int requestsEach = 25;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int id = c;
                results.add(pool.submit(() -> {
                    HttpClient own = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                    int ok = 0;
                    for (int i = 0; i < requestsEach; i++) {
                        String path = (i % 2 == 0) ? "/hello?name=" + id + "-" + i : "/blocking-thread";
                        HttpResponse<String> r = own.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
                        String expected = (i % 2 == 0) ? "hello " + id + "-" + i : "virtual=true";
                        if (r.statusCode() == 200 && r.body().equals(expected)) {
                            ok++;
                        }
                    }
                    own.close();
                    return ok;
                }));
            }
            int total = 0;
            for (Future<Integer> f : results) {
                total += f.get(60, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(clients * requestsEach);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void closeFinishesTheRequestInProgressAndReleasesThePort() throws Exception {
        int port = server.port();
        CompletableFuture<HttpResponse<String>> slow =
                client.sendAsync(HttpRequest.newBuilder(uri("/slow")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(slowStarted.await(10, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
        release.countDown();
        closing.get(30, TimeUnit.SECONDS);

        HttpResponse<String> response = slow.get(30, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("slow done");
        try (ServerSocket again = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
            assertThat(again.getLocalPort()).isEqualTo(port);
        }
        server.close(); // idempotent
    }

    @Test
    void bindFailureNamesTheServerAndAddress() throws Exception {
        HttpServerConfig taken =
                HttpServerConfig.kubeletDefaults("readonly", InetAddress.getLoopbackAddress(), server.port());

        assertThatThrownBy(() -> HttpServer.start(taken, router()))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("readonly server: cannot listen on 127.0.0.1:" + server.port());
    }

    @Test
    void configRejectsBadValuesNamingThem() {
        assertThatThrownBy(() -> HttpServerConfig.kubeletDefaults("healthz", InetAddress.getLoopbackAddress(), 70000))
                .hasMessage("healthz server: port 70000 is outside 0..65535");
        assertThatThrownBy(() -> config().withIdleTimeout(Duration.ZERO))
                .hasMessageContaining("idleTimeout must be positive");
    }

}
