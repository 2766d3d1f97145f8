package io.jkubelet.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /logs/}: the node's log directory as Go's {@code http.FileServer} serves it, and no way out of it. */
class SystemLogsEndpointTest {

    @TempDir
    Path tmp;

    private Path root;
    private Path outside;
    private ServedHandlers server;

    @BeforeEach
    void start() throws Exception {
        root = Files.createDirectories(tmp.resolve("var-log"));
        outside = Files.createDirectories(tmp.resolve("secret"));
        Files.writeString(outside.resolve("shadow"), "root:x:0:0\n");
        Files.writeString(root.resolve("syslog"), "Dec  3 07:00:00 node kernel: hello\n");
        Files.setLastModifiedTime(root.resolve("syslog"), FileTime.from(Instant.parse("2024-03-05T06:07:08Z")));
        Files.createDirectories(root.resolve("pods/default_web_uid/app"));
        Files.writeString(root.resolve("pods/default_web_uid/app/0.log"), "2024-05-01T09:00:00Z stdout F hi\n");
        Files.writeString(root.resolve("a&b <c>.txt"), "odd name\n");
        Files.createSymbolicLink(root.resolve("escape"), outside);
        Files.createSymbolicLink(root.resolve("shadow-link"), outside.resolve("shadow"));
        Files.createSymbolicLink(root.resolve("syslog.1"), root.resolve("syslog"));
        server = start(true);
    }

    /** The debugging handlers; their client follows no redirect, so that the tests see Go's 301s. */
    private ServedHandlers start(boolean enableSystemLogHandler) throws IOException {
        return ServedHandlers.start(new KubeletHandlers(new FakeKubeletView(), List.of(),
                new KubeletHandlers.DebuggingOptions(root, enableSystemLogHandler, Duration.ofMillis(50), Clock.systemUTC())),
                ServedHandlers.Group.DEBUGGING);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return server.get(path);
    }

    @Test
    void theRootIsAGoDirectoryListing() throws Exception {
        HttpResponse<String> response = get("/logs/");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
        assertThat(response.headers().firstValue("last-modified")).isPresent();
        assertThat(response.body()).isEqualTo("""
                <!doctype html>
                <meta name="viewport" content="width=device-width">
                <pre>
                <a href="a&b%20%3Cc%3E.txt">a&amp;b &lt;c&gt;.txt</a>
                <a href="escape">escape</a>
                <a href="pods/">pods/</a>
                <a href="shadow-link">shadow-link</a>
                <a href="syslog">syslog</a>
                <a href="syslog.1">syslog.1</a>
                </pre>
                """);
    }

    @Test
    void aFileIsServedWithLengthTypeAndModificationTime() throws Exception {
        HttpResponse<String> response = get("/logs/syslog");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("Dec  3 07:00:00 node kernel: hello\n");
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
        assertThat(response.headers().firstValue("content-length")).hasValue("35");
        assertThat(response.headers().firstValue("transfer-encoding")).isEmpty();
        assertThat(response.headers().firstValue("last-modified")).hasValue("Tue, 05 Mar 2024 06:07:08 GMT");
        assertThat(get("/logs/pods/default_web_uid/app/0.log").body()).isEqualTo("2024-05-01T09:00:00Z stdout F hi\n");
        assertThat(get("/logs/syslog.1").body()).as("a symlink inside the root").isEqualTo("Dec  3 07:00:00 node kernel: hello\n");
    }

    @Test
    void ifModifiedSinceGets304() throws Exception {
        HttpResponse<String> response = server.send(server.request("/logs/syslog")
                        .header("If-Modified-Since", "Tue, 05 Mar 2024 06:07:08 GMT"),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(304);
    }

    @Test
    void directoriesWithoutTheirSlashAndFilesWithOneAreRedirectedRelatively() throws Exception {
        HttpResponse<String> dir = get("/logs/pods/default_web_uid?x=1");
        HttpResponse<String> file = get("/logs/syslog/");
        HttpResponse<String> index = get("/logs/pods/index.html");

        assertThat(dir.statusCode()).isEqualTo(301);
        assertThat(dir.headers().firstValue("location")).hasValue("default_web_uid/?x=1");
        assertThat(file.statusCode()).isEqualTo(301);
        assertThat(file.headers().firstValue("location")).hasValue("../syslog");
        assertThat(index.statusCode()).isEqualTo(301);
        assertThat(index.headers().firstValue("location")).hasValue("./");
        assertThat(get("/logs/pods/").body()).contains("<a href=\"default_web_uid/\">default_web_uid/</a>");
    }

    @Test
    void missingPathsAre404() throws Exception {
        for (String path : List.of("/logs/nothing", "/logs/syslog/below", "/logs/pods/none/")) {
            HttpResponse<String> response = get(path);

            assertThat(response.statusCode()).as(path).isEqualTo(404);
            assertThat(response.body()).as(path).isEqualTo("404 page not found\n");
        }
    }

    @Test
    void dotDotNeverLeavesTheRoot() throws Exception {
        // Sent raw: HTTP clients clean ".." themselves before sending.
        String answer = rawGet("/logs/../secret/shadow");
        String encoded = rawGet("/logs/%2e%2e/%2e%2e/secret/shadow");
        String deep = rawGet("/logs/pods/../../../../../../../etc/passwd");

        assertThat(answer).startsWith("HTTP/1.1 404 ").doesNotContain("root:x");
        assertThat(encoded).startsWith("HTTP/1.1 404 ").doesNotContain("root:x");
        assertThat(deep).startsWith("HTTP/1.1 404 ").doesNotContain("root:");
        assertThat(rawGet("/logs/pods/../syslog")).startsWith("HTTP/1.1 200 ").endsWith("node kernel: hello\n");
    }

    @Test
    void symlinksPointingOutsideTheRootAre404() throws Exception {
        for (String path : List.of("/logs/shadow-link", "/logs/escape/", "/logs/escape/shadow")) {
            HttpResponse<String> response = get(path);

            assertThat(response.statusCode()).as(path).isEqualTo(404);
            assertThat(response.body()).as(path).doesNotContain("root:x");
        }
    }

    @Test
    void disabledSystemLogHandlerIs405() throws Exception {
        try (ServedHandlers disabled = start(false)) {
            HttpResponse<String> response = disabled.get("/logs/syslog");

            assertThat(response.statusCode()).isEqualTo(405);
            assertThat(response.body()).isEqualTo("logs endpoint is disabled.\n");
        }
    }

    @Test
    void onlyGetIsAllowed() throws Exception {
        HttpResponse<String> response = server.send(server.request("/logs/syslog")
                        .DELETE(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(Files.exists(root.resolve("syslog"))).isTrue();
    }

    private String rawGet(String path) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(StandardCharsets.UTF_8);
        }
    }
}
