package io.jkubelet.core.probe;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class TcpProberTest {
    private final TcpProber prober = new TcpProber();

    @Test
    void anOpenPortIsSuccess() throws IOException {
        try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThat(prober.probe("127.0.0.1", listening.getLocalPort(), Duration.ofSeconds(5)))
                    .isEqualTo(ProbeOutcome.success(""));
        }
    }

    @Test
    void aClosedPortIsAFailureSayingWhy() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }

        assertThat(prober.probe("127.0.0.1", closed, Duration.ofSeconds(5)))
                .isEqualTo(ProbeOutcome.failure("dial tcp 127.0.0.1:" + closed + ": connect: connection refused"));
    }

    @Test
    void anUnknownHostIsAFailureNamingIt() {
        assertThat(prober.probe("no-such-host.invalid", 80, Duration.ofSeconds(5)))
                .isEqualTo(ProbeOutcome.failure("dial tcp: lookup no-such-host.invalid: no such host"));
    }
}
