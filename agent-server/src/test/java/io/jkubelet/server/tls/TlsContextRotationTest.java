package io.jkubelet.server.tls;

import io.jkubelet.server.http.HttpServer;
import io.jkubelet.server.http.HttpServerConfig;
import io.jkubelet.server.http.Response;
import io.jkubelet.server.http.Router;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLSocket;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A rotated serving certificate is served from the next handshake on; a connection opened before keeps working. */
class TlsContextRotationTest {

    @Test
    void newHandshakesGetTheNewCertificateAndOpenConnectionsKeepTheirs() throws Exception {
        ServingCertificate first = pair("first.example");
        ServingCertificate second = pair("second.example");
        TlsContext tls = ServerTls.context(first, "", List.of(), List.of());
        Router router = Router.builder().get("/ping", r -> Response.text(200, "pong")).build();
        try (HttpServer server = HttpServer.start(HttpServerConfig.kubeletDefaults("secure", InetAddress.getLoopbackAddress(), 0),
                router, tls::sslContext, null)) {
            SSLSocket before = connect(server.port());
            assertThat(servedCn(before)).startsWith("CN=first.example@");
            assertThat(ping(before)).isEqualTo("pong");

            tls.use(second.chain(), second.key(), "the second pair");

            try (SSLSocket after = connect(server.port())) {
                assertThat(servedCn(after)).startsWith("CN=second.example@");
                assertThat(ping(after)).isEqualTo("pong");
            }
            // The connection of the first certificate was not dropped: another request on it is answered.
            assertThat(servedCn(before)).startsWith("CN=first.example@");
            assertThat(ping(before)).isEqualTo("pong");
            before.close();
        }
    }

    static ServingCertificate pair(String host) throws Exception {
        SelfSignedPair p = SelfSignedPair.generate(host, Instant.now());
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("tls-rotation");
        java.nio.file.Path cert = java.nio.file.Files.writeString(dir.resolve("c.crt"), p.certificatePem());
        java.nio.file.Path key = java.nio.file.Files.writeString(dir.resolve("c.key"), p.keyPem());
        return ServingCertificate.load(cert, key);
    }

    static SSLSocket connect(int port) throws Exception {
        SSLSocket socket = (SSLSocket) TestPki.clientContext(null).getSocketFactory().createSocket("127.0.0.1", port);
        socket.startHandshake();
        return socket;
    }

    static String servedCn(SSLSocket socket) throws Exception {
        return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
    }

    /** One keep-alive GET /ping on the connection; the body. */
    static String ping(SSLSocket socket) throws Exception {
        OutputStream out = socket.getOutputStream();
        out.write("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        int length = 0;
        for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        char[] body = new char[length];
        int read = 0;
        while (read < length) {
            read += in.read(body, read, length - read);
        }
        return new String(body);
    }
}
