package io.jkubelet.docker.engine;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;

import static io.jkubelet.docker.engine.ScriptedDaemon.PING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The client's connections against a scripted daemon on a unix socket or TCP loopback: keep-alive, a connection the
 * daemon closed while idle, a daemon that does not answer, the version prefix.
 */
class EngineConnectionsTest {

    @Test
    void callsOverTcpGoToTheNegotiatedVersionOnOneConnection() throws IOException {
        try (ScriptedDaemon daemon = ScriptedDaemon.tcp(request -> request.startsWith("GET /_ping") ? PING
                : "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "b\r\n{\"Version\":\r\n7\r\n\"20.10\"\r\n1\r\n}\r\n0\r\n\r\n", true)) {
            try (DockerEngine engine = DockerEngine.connect(daemon.endpoint(), Duration.ofMinutes(1))) {
                assertThat(engine.version().version()).isEqualTo("20.10");
                assertThat(engine.version().version()).isEqualTo("20.10");
                assertThat(engine.idleConnections()).isEqualTo(1);
            }
            assertThat(daemon.requestLines()).containsExactly("GET /_ping HTTP/1.1", "GET /v1.41/version HTTP/1.1",
                    "GET /v1.41/version HTTP/1.1");
            assertThat(daemon.accepted()).isEqualTo(1);
        }
    }

    @Test
    void aConnectionTheDaemonClosedWhileIdleIsReplaced() throws IOException {
        try (ScriptedDaemon daemon = ScriptedDaemon.unix(request -> request.startsWith("GET /_ping") ? PING
                : "HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n{\"Version\":\"20.10\"}\n", false)) {
            try (DockerEngine engine = DockerEngine.connect(daemon.endpoint(), Duration.ofMinutes(1))) {
                assertThat(engine.version().version()).isEqualTo("20.10");
                assertThat(engine.version().version()).isEqualTo("20.10");
            }
            assertThat(daemon.accepted()).isEqualTo(3);
        }
    }

    @Test
    void aKeptConnectionTheDaemonResetsUnderARequestIsReplacedForThatRequest() throws IOException {
        try (ScriptedDaemon daemon = ScriptedDaemon.unix(request -> request.startsWith("GET /_ping") ? PING
                : "HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n{\"Version\":\"20.10\"}\n", false)
                .closingOnTheNextRequest()) {
            try (DockerEngine engine = DockerEngine.connect(daemon.endpoint(), Duration.ofMinutes(1))) {
                assertThat(engine.version().version()).isEqualTo("20.10");
                assertThat(engine.version().version()).isEqualTo("20.10");
            }
            assertThat(daemon.requestLines()).containsExactly("GET /_ping HTTP/1.1", "GET /v1.41/version HTTP/1.1",
                    "GET /v1.41/version HTTP/1.1");
            assertThat(daemon.accepted()).isEqualTo(3);
        }
    }

    @Test
    void aDaemonThatDoesNotAnswerTimesOutNamingTheCallAndTheSetting() throws IOException {
        try (ScriptedDaemon daemon = ScriptedDaemon.unix(request -> null, true)) {
            assertThatThrownBy(() -> DockerEngine.connect(daemon.endpoint(), Duration.ofMillis(300)))
                    .isInstanceOf(EngineCallException.Timeout.class)
                    .hasMessage("ping: Docker did not answer GET /_ping within 300ms (runtimeRequestTimeout)");
        }
    }
}
