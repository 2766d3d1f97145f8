package io.jkubelet.docker.engine;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The HTTP/1.1 answers of the daemon read from memory, fed whole and one byte per read. */
class EngineHttpParsingTest {

    @Test
    void headIsReadWithItsHeadersCaseInsensitivelyAndNothingBeyondIt() throws IOException {
        InputStream in = stream("HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\ncontent-length: 2\r\n\r\nOKrest");

        ResponseHead head = ResponseHead.read(in);

        assertThat(head.status()).isEqualTo(200);
        assertThat(head.header("API-VERSION")).isEqualTo("1.41");
        assertThat(head.header("Content-Length")).isEqualTo("2");
        assertThat(head.keepAlive()).isTrue();
        assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("OKrest");
    }

    @Test
    void connectionCloseAndHttp10AreNotKeptAlive() throws IOException {
        assertThat(ResponseHead.read(stream("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")).keepAlive()).isFalse();
        assertThat(ResponseHead.read(stream("HTTP/1.0 200 OK\r\n\r\n")).keepAlive()).isFalse();
    }

    @Test
    void badStatusLinesAreRefusedNamingTheLine() {
        for (String line : List.of("HTTP/1.1 OK", "SSH-2.0-OpenSSH", "HTTP/1.1 2000 Big", "HTTP/1.1 abc X")) {
            assertThatThrownBy(() -> ResponseHead.read(stream(line + "\r\n\r\n")))
                    .isInstanceOf(EngineProtocolException.class)
                    .hasMessageContaining("malformed status line \"" + line + "\"");
        }
    }

    @Test
    void aHeaderLineWithoutAColonIsRefused() {
        assertThatThrownBy(() -> ResponseHead.read(stream("HTTP/1.1 200 OK\r\nbroken\r\n\r\n")))
                .isInstanceOf(EngineProtocolException.class).hasMessageContaining("\"broken\"");
    }

    @Test
    void oversizedHeadersAreRefusedInsteadOfReadForEver() {
        String huge = "HTTP/1.1 200 OK\r\nX-Big: " + "a".repeat(ResponseHead.MAX_HEAD) + "\r\n\r\n";

        assertThatThrownBy(() -> ResponseHead.read(stream(huge)))
                .isInstanceOf(EngineProtocolException.class).hasMessageContaining("longer than 65536 bytes");
    }

    @Test
    void anEmptyAnswerIsNoAnswerAndACutOneIsAnEarlyEnd() {
        assertThatThrownBy(() -> ResponseHead.read(stream(""))).isInstanceOf(ResponseHead.NoAnswerException.class);
        assertThatThrownBy(() -> ResponseHead.read(stream("HTTP/1.1 200 OK\r\nA: b")))
                .isInstanceOf(EOFException.class).isNotInstanceOf(ResponseHead.NoAnswerException.class);
    }

    @Test
    void chunkedBodyIsJoinedAndEndsAtTheLastChunkWholeOrByteByByte() throws IOException {
        String wire = "5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nTrailer: x\r\n\r\nNEXT";
        for (InputStream in : List.of(stream(wire), trickle(wire))) {
            InputStream body = new ChunkedInputStream(in);

            assertThat(new String(body.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("hello, world");
            assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("NEXT");
        }
    }

    @Test
    void malformedOrCutChunksAreErrors() {
        assertThatThrownBy(() -> new ChunkedInputStream(stream("zz\r\nab\r\n0\r\n\r\n")).readAllBytes())
                .isInstanceOf(EngineProtocolException.class).hasMessageContaining("malformed chunk size \"zz\"");
        assertThatThrownBy(() -> new ChunkedInputStream(stream("2\r\nabc\r\n0\r\n\r\n")).readAllBytes())
                .isInstanceOf(EngineProtocolException.class).hasMessageContaining("longer than its size");
        assertThatThrownBy(() -> new ChunkedInputStream(stream("5\r\nab")).readAllBytes())
                .isInstanceOf(EOFException.class);
    }

    @Test
    void aContentLengthBodyEndsAtItsLengthAndLeavesTheConnectionReusable() throws IOException {
        InputStream in = trickle("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1...");
        List<Boolean> ends = new ArrayList<>();
        ResponseHead head = ResponseHead.read(in);

        InputStream body = ResponseBody.of(head, "GET", in, ends::add);

        assertThat(new String(body.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("hello");
        assertThat(ends).containsExactly(true);
    }

    @Test
    void aBodyClosedBeforeItsEndDropsTheConnection() throws IOException {
        InputStream in = stream("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n");
        List<Boolean> ends = new ArrayList<>();
        InputStream body = ResponseBody.of(ResponseHead.read(in), "GET", in, ends::add);

        assertThat(body.read()).isEqualTo('h');
        body.close();

        assertThat(ends).containsExactly(false);
    }

    @Test
    void aBodyCutShortOfItsLengthIsAnError() throws IOException {
        InputStream in = stream("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello");
        InputStream body = ResponseBody.of(ResponseHead.read(in), "GET", in, reusable -> { });

        assertThatThrownBy(body::readAllBytes).isInstanceOf(EOFException.class).hasMessageContaining("5 bytes before");
    }

    @Test
    void aBadContentLengthIsRefused() {
        InputStream in = stream("HTTP/1.1 200 OK\r\nContent-Length: many\r\n\r\n");

        assertThatThrownBy(() -> ResponseBody.of(ResponseHead.read(in), "GET", in, reusable -> { }))
                .isInstanceOf(EngineProtocolException.class).hasMessageContaining("\"many\"");
    }

    @Test
    void errorAnswersBecomeTheExceptionOfTheirStatusWithTheDaemonsMessage() throws IOException {
        assertThat(error(404, "{\"message\":\"No such container: x\"}"))
                .isInstanceOf(EngineCallException.NotFound.class)
                .hasMessage("inspect container x: No such container: x");
        assertThat(error(409, "{\"message\":\"name in use\"}")).isInstanceOf(EngineCallException.Conflict.class);
        assertThat(error(304, "")).isInstanceOf(EngineCallException.NotModified.class);
        assertThat(error(500, "plain text")).isExactlyInstanceOf(EngineCallException.class)
                .hasMessageEndingWith(": plain text")
                .extracting(e -> ((EngineCallException) e).status()).isEqualTo(500);
    }

    @Test
    void multiplexedFramesAreSplitByStreamWholeOrByteByByte() throws IOException {
        byte[] wire = concat(frame(1, "out\n"), frame(2, "err\n"), frame(1, ""));
        for (InputStream in : List.of(new ByteArrayInputStream(wire), trickle(wire))) {
            LogFrames frames = new LogFrames(in);

            assertThat(text(frames.next())).isEqualTo("STDOUT:out\n");
            assertThat(text(frames.next())).isEqualTo("STDERR:err\n");
            assertThat(text(frames.next())).isEqualTo("STDOUT:");
            assertThat(frames.next()).isNull();
        }
    }

    @Test
    void rawTtyOutputIsNotTakenForFrames() {
        LogFrames frames = new LogFrames(stream("hello world\n"));

        assertThatThrownBy(frames::next).isInstanceOf(IOException.class).hasMessageContaining("TTY");
    }

    @Test
    void theApiVersionIsTheDaemonsUpToTheOneTheRecordsFollow() {
        assertThat(DockerEngine.negotiate("1.41")).isEqualTo("1.41");
        assertThat(DockerEngine.negotiate("1.45")).isEqualTo("1.41");
        assertThat(DockerEngine.negotiate("1.40")).isEqualTo("1.40");
        assertThat(DockerEngine.negotiate("1.9")).isEqualTo("1.9");
        assertThat(DockerEngine.negotiate(null)).isEqualTo("1.24");
    }

    @Test
    void errorsNameTheCallByTheApisPathWithoutVersionOrQuery() {
        assertThat(new EngineRequest("GET", "/v1.41/containers/json?all=true", java.util.Map.of(), null, null).call())
                .isEqualTo("GET /containers/json");
        assertThat(new EngineRequest("GET", "/_ping", java.util.Map.of(), null, null).call()).isEqualTo("GET /_ping");
    }

    @Test
    void endpointsAreUnixSocketsOrTcpAndOthersAreRefusedByName() {
        assertThat(EngineEndpoint.parse("/var/run/docker.sock").uri()).isEqualTo("unix:///var/run/docker.sock");
        assertThat(EngineEndpoint.parse("tcp://127.0.0.1:2375").uri()).isEqualTo("tcp://127.0.0.1:2375");
        assertThatThrownBy(() -> EngineEndpoint.parse("npipe:////./pipe/docker_engine"))
                .hasMessageContaining("\"npipe:////./pipe/docker_engine\" has an unsupported scheme");
        assertThatThrownBy(() -> EngineEndpoint.parse("tcp://127.0.0.1")).hasMessageContaining("needs a host and a port");
        assertThatThrownBy(() -> EngineEndpoint.parse(" ")).hasMessageContaining("Docker endpoint is empty");
    }

    @Test
    void registryCredentialsGoAsBase64UrlJsonInTheEngineApisFieldNames() {
        AuthConfig auth = new AuthConfig("user", "p?>?", null, "127.0.0.1:5001", null, null);

        String json = new String(Base64.getUrlDecoder().decode(auth.header()), StandardCharsets.UTF_8);

        assertThat(json).isEqualTo("{\"username\":\"user\",\"password\":\"p?>?\",\"serveraddress\":\"127.0.0.1:5001\"}");
        assertThat(auth.header()).doesNotContain("+", "/");
        assertThat(auth.toString()).doesNotContain("p?>?");
    }

    private static EngineCallException error(int status, String body) throws IOException {
        String wire = "HTTP/1.1 " + status + " X\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
        InputStream in = stream(wire);
        ResponseHead head = ResponseHead.read(in);
        EngineResponse response = new EngineResponse(head, ResponseBody.of(head, "GET", in, reusable -> { }));
        try {
            response.requireSuccess("inspect container x");
        } catch (EngineCallException e) {
            return e;
        }
        throw new AssertionError("status " + status + " was taken for a success");
    }

    private static String text(LogFrames.Frame frame) {
        return frame.stream() + ":" + new String(frame.payload(), StandardCharsets.US_ASCII);
    }

    private static byte[] frame(int stream, String payload) {
        byte[] p = payload.getBytes(StandardCharsets.US_ASCII);
        byte[] f = new byte[8 + p.length];
        f[0] = (byte) stream;
        f[7] = (byte) p.length;
        System.arraycopy(p, 0, f, 8, p.length);
        return f;
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static InputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static InputStream trickle(String text) {
        return trickle(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** A stream that gives at most one byte per read, as a socket may. */
    private static InputStream trickle(byte[] bytes) {
        return new FilterInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, 1));
            }
        };
    }
}
