package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;
import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.server.HealthzServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** enableServer and healthzBindAddress decide which servers the agent starts, and where. */
class ServerSwitchesTest {
    @TempDir
    Path dir;

    private static KubeletConfiguration.Builder defaults() {
        return KubeletConfiguration.builder().from(KubeletConfigurationDefaults.newDefaulted());
    }

    @Test
    void enableServerFalseStartsNoSecureServer() throws Exception {
        KubeletFlags flags = new KubeletFlags("", "", "", "node-a", "", dir.toString(), dir.resolve("pki").toString(),
                Map.of(), dir.resolve("containers").toString(), "jkubelet/pause:3.9", GCPolicy.DEFAULT, 0);

        assertThat(SecureServing.prepare(flags, defaults().enableServer(false).build(), "node-a", Clock.systemUTC()))
                .isEmpty();
        // enableServer true (the default): the secure server is prepared, and here refuses its webhook modes standalone.
        assertThatThrownBy(() -> SecureServing.prepare(flags, defaults().port(0).build(), "node-a", Clock.systemUTC()))
                .hasMessageContaining("secure server");
    }

    @Test
    void theHealthzServerListensOnHealthzBindAddressOnly() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        KubeletConfiguration config = defaults().healthzBindAddress("127.0.0.2").healthzPort(port).build();

        try (HealthzServer server = KubeletServers.healthzServer(config, null).orElseThrow()) {
            try (Socket bound = new Socket()) {
                bound.connect(new InetSocketAddress("127.0.0.2", server.port()), 5000);
                assertThat(bound.isConnected()).isTrue();
            }
            assertThatThrownBy(() -> {
                try (Socket other = new Socket()) {
                    other.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
                }
            }).as("not on 127.0.0.1").isInstanceOf(ConnectException.class);
        }
        assertThat(KubeletServers.healthzServer(defaults().healthzPort(0).build(), null)).as("healthzPort 0").isEmpty();
    }

}
