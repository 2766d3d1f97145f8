package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.kubelet.Kubelet;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.util.StopSequence;
import io.jkubelet.server.HealthzServer;
import io.jkubelet.server.KubeletView;
import io.jkubelet.server.ReadOnlyServer;
import io.jkubelet.server.healthz.HealthChecker;
import io.jkubelet.server.healthz.HealthcheckSlis;
import io.jkubelet.server.streaming.ContainerStreaming;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * The kubelet's HTTP servers (upstream {@code startKubelet}'s {@code ListenAndServe*}): the healthz port, which serves
 * first, then the secure port, the read-only port and {@code --cadvisor-port}, which share the kubelet's view and its
 * health checks.
 */
final class KubeletServers {

    private KubeletServers() {
    }

    /** The healthz server on {@code healthzBindAddress:healthzPort}; none when the port is 0. */
    static Optional<HealthzServer> healthzServer(KubeletConfiguration config, HealthcheckSlis slis) throws StartupException {
        if (config.healthzPort() <= 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(HealthzServer.start(InetAddress.getByName(config.healthzBindAddress()), config.healthzPort(),
                    slis));
        } catch (IOException e) {
            throw new StartupException("cannot serve HTTP: " + e.getMessage(), e);
        }
    }

    /**
     * Starts the secure port (when {@code secure} is there), the read-only port and {@code --cadvisor-port}, each
     * added to {@code running} as it starts.
     *
     * @param verbosity sets the running log verbosity, for the secure port's {@code PUT /debug/flags/v}
     */
    static void start(KubeletServer server, Kubelet kubelet, RuntimeService runtime, Optional<SecureServing> secure,
                      HealthcheckSlis slis, LongConsumer verbosity, StopSequence running) throws StartupException {
        KubeletConfiguration config = server.config();
        ContainerAccess containers = ContainerAccess.of(kubelet, runtime);
        DashboardNode node = new DashboardNode(kubelet::node, kubelet.nodePressure(), kubelet::plegHealth, runtime,
                KubeletVersion.compatVersion());
        ContainerStreaming streaming = new KubeletStreaming(containers);
        List<HealthChecker> checks = List.of(HealthChecker.named("log", Optional::empty),
                HealthChecker.named("syncloop", () -> syncLoopHealth(kubelet, config.syncFrequency())),
                // Upstream reports PLEG health through the node's Ready condition; a standalone node has no
                // node object, so the relist's staleness is a check of its own here.
                HealthChecker.named("pleg", kubelet::plegHealth));
        KubeletView view = new NodeView(containers, streaming, kubelet.probeMetrics(), kubelet.kubeletMetrics(), kubelet::stats,
                NodeView.Diagnostics.of(kubelet, node), slis);
        try {
            if (secure.isPresent()) {
                running.add("secure-server", secure.get().start(view, checks, verbosity::accept));
            }
            if (config.readOnlyPort() > 0) {
                running.add("read-only-server", ReadOnlyServer.start(InetAddress.getByName(config.address()), config.readOnlyPort(), view, checks,
                        !Boolean.FALSE.equals(config.enableDebuggingHandlers())));
            }
            DashboardPort.start(server.flags(), view, checks).ifPresent(s -> running.add("cadvisor-port-server", s));
        } catch (IOException e) {
            throw new StartupException("cannot serve HTTP: " + e.getMessage(), e);
        }
    }

    /** Fails when the loop has not come round for twice the resync interval, at least 5 minutes (upstream). */
    static Optional<String> syncLoopHealth(Kubelet kubelet, Duration syncFrequency) {
        long limit = Math.max(syncFrequency.multipliedBy(2).toSeconds(), Duration.ofMinutes(5).toSeconds());
        return kubelet.secondsSinceSyncLoopIteration() > limit ? Optional.of("sync Loop took longer than expected")
                : Optional.empty();
    }
}
