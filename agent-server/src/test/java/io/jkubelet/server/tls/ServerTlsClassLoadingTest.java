package io.jkubelet.server.tls;

import io.jkubelet.server.http.HttpServer;
import io.jkubelet.server.http.HttpServerConfig;
import io.jkubelet.server.http.Response;
import io.jkubelet.server.http.Router;
import org.junit.jupiter.api.Test;
import javax.net.ssl.SSLSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Serving TLS does not load BouncyCastle's JCA provider. Netty's own server context instantiates it (its class
 * initialisation reads a PEM test key, and its PEM reader builds a {@code BouncyCastleProvider} whenever the class is
 * on the classpath): hundreds of classes and their tables on every start, on the step the pod sources wait for.
 *
 * <p>Run in a JVM of its own, with the JVM's class-loading log: in the test JVM other tests may have loaded the
 * class already, and a class once loaded stays loaded.
 */
class ServerTlsClassLoadingTest {

    static final String PROVIDER = "org.bouncycastle.jce.provider.BouncyCastleProvider";

    @Test
    void aServedHandshakeLoadsNoBouncyCastleProvider() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-Xlog:class+load=info", "-cp",
                System.getProperty("java.class.path"), Serve.class.getName())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        // The log names every class loaded: the handshake's own classes are there, the provider is not.
        assertThat(output).contains("served CN=load.example@").contains("io.netty.handler.ssl.JdkSslContext ");
        assertThat(output).doesNotContain(PROVIDER);
    }

    /** Serves one pair and makes one handshake with a GET on it. */
    static final class Serve {
        public static void main(String[] args) throws Exception {
            ServingCertificate pair = TlsContextRotationTest.pair("load.example");
            TlsContext tls = ServerTls.context(pair, "", List.of(), List.of());
            Router router = Router.builder().get("/ping", r -> Response.text(200, "pong")).build();
            try (HttpServer server = HttpServer.start(
                    HttpServerConfig.kubeletDefaults("secure", InetAddress.getLoopbackAddress(), 0), router,
                    tls::sslContext, null);
                    SSLSocket socket = TlsContextRotationTest.connect(server.port())) {
                if (!"pong".equals(TlsContextRotationTest.ping(socket))) {
                    throw new IllegalStateException("no answer over TLS");
                }
                System.out.println("served " + TlsContextRotationTest.servedCn(socket));
            }
            System.exit(0);
        }
    }
}
