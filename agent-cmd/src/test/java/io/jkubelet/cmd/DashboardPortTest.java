package io.jkubelet.cmd;

import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.server.ReadOnlyServer;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --cadvisor-port}: off by default, on loopback unless {@code --address} was given, serving the dashboard. */
class DashboardPortTest {
    private static KubeletFlags flags(int port, String address) {
        return new KubeletFlags("", "", "", "node-a", "", "/tmp", "/tmp/pki", Map.of(), "/tmp/c", "jkubelet/pause:3.9",
                GCPolicy.DEFAULT, 0, port, address);
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static NodeView view() {
        return NodeView.of(new ContainerAccess(List::of, List::of, new io.jkubelet.core.runtime.testing.FakeRuntime(Clock.systemUTC())));
    }

    @Test
    void offWhenZero() throws Exception {
        assertThat(DashboardPort.start(flags(0, KubeletFlags.DEFAULT_CADVISOR_ADDRESS), view(), List.of())).isEmpty();
    }

    @Test
    void servesTheDashboardOnLoopbackByDefault() throws Exception {
        Optional<ReadOnlyServer> server = DashboardPort.start(flags(freePort(), KubeletFlags.DEFAULT_CADVISOR_ADDRESS), view(), List.of());
        try (ReadOnlyServer s = server.orElseThrow(); HttpClient http = HttpClient.newHttpClient()) {
            assertThat(s.localAddress().getAddress()).isEqualTo(InetAddress.getByName("127.0.0.1"));
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + "/dashboard/"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<title>jkubelet dashboard</title>");
        }
    }

    @Test
    void anAddressGivenIsWhereItListens() throws Exception {
        try (ReadOnlyServer s = DashboardPort.start(flags(freePort(), "0.0.0.0"), view(), List.of()).orElseThrow()) {
            assertThat(s.localAddress().getAddress().isAnyLocalAddress()).isTrue();
        }
    }
}
