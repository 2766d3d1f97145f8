package io.jkubelet.cmd;

import io.jkubelet.server.KubeletView;
import io.jkubelet.server.ReadOnlyServer;
import io.jkubelet.server.healthz.HealthChecker;
import io.jkubelet.server.http.HttpServerConfig;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * {@code --cadvisor-port}: the dashboard over plain HTTP with no authentication, where upstream's kubelet served
 * cAdvisor's page until 1.12. It serves what the read-only port serves (the dashboard, {@code /pods}, the stats, the
 * timelines; no debugging handlers), bound to 127.0.0.1 unless {@code --address} was given, so that a node opens it
 * to the network only when told to.
 */
final class DashboardPort {
    private DashboardPort() {}

    /** The server, or empty when {@code --cadvisor-port} is 0. */
    static Optional<ReadOnlyServer> start(KubeletFlags flags, KubeletView view, List<HealthChecker> checks) throws IOException {
        if (flags.cadvisorPort() <= 0) {
            return Optional.empty();
        }
        InetAddress address = InetAddress.getByName(flags.cadvisorAddress());
        return Optional.of(ReadOnlyServer.start(HttpServerConfig.kubeletDefaults("cadvisor", address, flags.cadvisorPort()),
                view, checks, false));
    }
}
