package io.jkubelet.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Whatever bytes a client sends, the server answers or closes the connection, and keeps serving: after each input a
 * well-formed request on a new connection is answered. The server is the real one on loopback, with routes that
 * read path parameters, queries and bodies. Runs its corpus ({@code HttpRequestFuzzTestInputs/}) as a regression
 * test; with {@code JAZZER_FUZZ=1} it fuzzes.
 */
class HttpRequestFuzzTest {
    private static HttpServer server;

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.start(HttpServerConfig.kubeletDefaults("fuzz", InetAddress.getLoopbackAddress(), 0)
                .withMaxContentLength(4096), Router.builder()
                .get("/hello", r -> Response.text(200, "hello " + r.queryParam("name")))
                .get("/items/{id}", r -> Response.text(200, "item " + r.pathParam("id")))
                .route("POST", "/echo", r -> Response.of(200, "application/octet-stream", r.body()))
                .any("/tree/", r -> Response.text(200, "tree " + r.path() + " " + r.query() + " " + r.header("x-a")))
                .build());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @FuzzTest(maxDuration = "20s")
    void anyBytesGetAnAnswerOrACloseAndTheServerKeepsServing(byte[] data) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(2000);
            socket.getOutputStream().write(data);
            socket.shutdownOutput();
            drain(socket.getInputStream());
        } catch (IOException e) {
            // A reset is a close.
        }
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("GET /hello?name=node HTTP/1.1\r\nHost: fuzz\r\n\r\n");
            RawHttp.RawResponse answer = http.read();
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo("hello node");
        }
    }

    /** Reads until the server closes; a server that neither answers nor closes within 2 s fails the input. */
    private static void drain(InputStream in) throws IOException {
        byte[] buffer = new byte[8192];
        try {
            while (in.read(buffer) >= 0) {
                // discard
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server neither answered nor closed the connection within 2 s", e);
        }
    }
}
