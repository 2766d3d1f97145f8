package io.jkubelet.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Streaming responses ({@link Response#streaming}) through the real server, seen by real clients. */
class StreamingResponseTest {

    private static final int BIG_PIECE = 64 * 1024;
    private static final long BIG_TOTAL = 64L * 1024 * 1024;

    private final CountDownLatch releaseSecond = new CountDownLatch(1);
    private final CountDownLatch writerEnded = new CountDownLatch(1);
    private final AtomicReference<Throwable> writerFailure = new AtomicReference<>();
    private final AtomicReference<Boolean> sawClientGone = new AtomicReference<>();
    private final AtomicLong bigWritten = new AtomicLong();
    private final AtomicReference<Thread> bigWriter = new AtomicReference<>();
    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        Router router = Router.builder()
                .get("/hello", r -> Response.text(200, "hello"))
                .get("/lines", r -> Response.streaming(200, null, out -> {
                    out.write("one\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    out.write("two\n".getBytes(StandardCharsets.UTF_8));
                }))
                .get("/typed", r -> Response.streaming(201, "text/plain", out -> out.write('x')))
                .get("/gated", Handler.blocking(r -> Response.streaming(200, null, out -> {
                    out.write("first\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    releaseSecond.await(30, TimeUnit.SECONDS);
                    out.write("second\n".getBytes(StandardCharsets.UTF_8));
                })))
                .get("/forever", r -> Response.streaming(200, null, out -> {
                    try {
                        while (true) {
                            out.write("tick\n".getBytes(StandardCharsets.UTF_8));
                            out.flush();
                            if (out.awaitClientGone(Duration.ofMillis(20))) {
                                sawClientGone.set(true);
                                return;
                            }
                        }
                    } catch (ResponseStream.ClientGoneException e) {
                        sawClientGone.set(true);
                        throw e;
                    } finally {
                        writerEnded.countDown();
                    }
                }))
                .get("/idle-follow", r -> Response.streaming(200, null, out -> {
                    try {
                        out.write("waiting\n".getBytes(StandardCharsets.UTF_8));
                        out.flush();
                        // As a followed log waits for new lines: wakes when the client leaves, not later.
                        sawClientGone.set(out.awaitClientGone(Duration.ofMinutes(5)));
                    } finally {
                        writerEnded.countDown();
                    }
                }))
                .get("/big", r -> Response.streaming(200, null, out -> {
                    bigWriter.set(Thread.currentThread());
                    byte[] piece = new byte[BIG_PIECE];
                    try {
                        for (long sent = 0; sent < BIG_TOTAL; sent += piece.length) {
                            Arrays.fill(piece, (byte) ('a' + (sent / BIG_PIECE) % 26));
                            out.write(piece);
                            bigWritten.addAndGet(piece.length);
                        }
                    } catch (Throwable t) {
                        writerFailure.set(t);
                        throw t;
                    } finally {
                        writerEnded.countDown();
                    }
                }))
                .get("/broken", r -> Response.streaming(200, null, out -> {
                    out.write("partial\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    throw new IllegalStateException("log file vanished");
                }))
                .build();
        server = HttpServer.start(HttpServerConfig.kubeletDefaults("stream", InetAddress.getLoopbackAddress(), 0), router);
    }

    @AfterEach
    void stop() {
        releaseSecond.countDown();
        server.close();
    }

    @Test
    void http11GetsAChunkedBodyAndTheConnectionServesTheNextRequest() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /lines HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.RawResponse head = raw.readHead();

            assertThat(head.status()).isEqualTo(200);
            assertThat(head.headers()).containsEntry("transfer-encoding", "chunked")
                    .doesNotContainKey("content-length")
                    .doesNotContainKey("content-type")
                    .containsKey("date");
            assertThat(raw.readChunkedBody()).isEqualTo("one\ntwo\n");

            raw.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(raw.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void statusAndContentTypeAreTheHandlers() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<String> response = client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/typed")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(201);
            assertThat(response.headers().firstValue("content-type")).hasValue("text/plain");
            assertThat(response.body()).isEqualTo("x");
        }
    }

    @Test
    void aFlushedChunkReachesTheClientWhileTheWriterStillRuns() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /gated HTTP/1.1\r\nHost: x\r\n\r\n");
            raw.readHead();

            // The writer holds "second" back until this chunk has been read: streaming, not buffering.
            assertThat(new String(raw.readChunk(), StandardCharsets.UTF_8)).isEqualTo("first\n");
            releaseSecond.countDown();
            assertThat(raw.readChunkedBody()).isEqualTo("second\n");
        }
    }

    @Test
    void http10ClientGetsACloseDelimitedBody() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /lines HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            RawHttp.RawResponse head = raw.readHead();

            assertThat(head.statusLine()).startsWith("HTTP/1.0 200");
            assertThat(head.headers()).doesNotContainKey("transfer-encoding").doesNotContainKey("content-length");
            assertThat(raw.readToEnd()).isEqualTo("one\ntwo\n");
        }
    }

    @Test
    void aClientThatDisconnectsMidStreamEndsTheWriter() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n");
            raw.readHead();
            assertThat(new String(raw.readChunk(), StandardCharsets.UTF_8)).isEqualTo("tick\n");
        }

        assertThat(writerEnded.await(30, TimeUnit.SECONDS)).as("the writer ended after the client left").isTrue();
        assertThat(sawClientGone.get()).isTrue();
    }

    @Test
    void aWriterWaitingForDataWakesWhenTheClientLeaves() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /idle-follow HTTP/1.1\r\nHost: x\r\n\r\n");
            raw.readHead();
            assertThat(new String(raw.readChunk(), StandardCharsets.UTF_8)).isEqualTo("waiting\n");
        }

        // Far sooner than the writer's 5 minute wait: the disconnect wakes it.
        assertThat(writerEnded.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(sawClientGone.get()).isTrue();
    }

    @Test
    void aSlowClientHoldsTheWriterBackAndStillGetsEveryByte() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");

            // Nobody reads: the writer must stop, blocked, long before it has written everything.
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                Thread t = bigWriter.get();
                return t != null && bigWritten.get() > 0
                        && (t.getState() == Thread.State.TIMED_WAITING || t.getState() == Thread.State.WAITING);
            });
            assertThat(writerEnded.getCount()).as("the writer is still blocked").isEqualTo(1);
            assertThat(bigWritten.get()).isLessThan(BIG_TOTAL / 2);

            raw.readHead();
            long received = 0;
            long expectedPiece = 0;
            long inPiece = 0;
            for (byte[] chunk; (chunk = raw.readChunk()) != null; ) {
                for (byte b : chunk) {
                    assertThat(b).isEqualTo((byte) ('a' + expectedPiece % 26));
                    if (++inPiece == BIG_PIECE) {
                        inPiece = 0;
                        expectedPiece++;
                    }
                }
                received += chunk.length;
            }
            assertThat(received).isEqualTo(BIG_TOTAL);
        }
        assertThat(writerFailure.get()).isNull();
    }

    @Test
    void aWriterThatFailsCutsTheConnectionWithoutTheLastChunk() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /broken HTTP/1.1\r\nHost: x\r\n\r\n");
            raw.readHead();
            assertThat(new String(raw.readChunk(), StandardCharsets.UTF_8)).isEqualTo("partial\n");

            assertThatThrownBy(raw::readChunk).isInstanceOf(IOException.class);
        }
        // The server goes on serving.
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(raw.read().body()).isEqualTo("hello");
        }
    }

    @Test
    void theJdkClientReadsAStreamedBody() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<InputStream> response = client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/lines")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                assertThat(new String(body.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("one\ntwo\n");
            }
        }
    }
}
