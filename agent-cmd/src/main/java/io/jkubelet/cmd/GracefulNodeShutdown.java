package io.jkubelet.cmd;

import io.jkubelet.cmd.systemd.LogindInhibitor;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.apis.config.GoDuration;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.kubelet.Kubelet;
import io.jkubelet.core.nodeshutdown.ShutdownGracePeriod;
import io.jkubelet.core.nodeshutdown.ShutdownGracePeriods;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Starts the kubelet's node shutdown manager from {@code shutdownGracePeriod}, {@code shutdownGracePeriodCriticalPods}
 * and {@code shutdownGracePeriodByPodPriority}, on the system bus ({@code DBUS_SYSTEM_BUS_ADDRESS} or the standard
 * socket). Where no bus or no logind answers the node runs on without it, as upstream's, and one warning names the
 * settings and what is not done.
 */
final class GracefulNodeShutdown {
    private static final Logger log = LoggerFactory.getLogger(GracefulNodeShutdown.class);

    private GracefulNodeShutdown() {}

    /** @param syncNodeStatus posts the node's status at once (nothing on a standalone node) */
    static void start(KubeletConfiguration config, FeatureGates gates, Kubelet kubelet, Runnable syncNodeStatus,
            Map<String, String> env) {
        if (!gates.enabled(FeatureGates.GRACEFUL_NODE_SHUTDOWN)) {
            // Validation refuses the settings then; nothing to start.
            return;
        }
        List<ShutdownGracePeriod> periods = ShutdownGracePeriods.of(config.shutdownGracePeriod(),
                config.shutdownGracePeriodCriticalPods(), config.shutdownGracePeriodByPodPriority(),
                gates.enabled(FeatureGates.GRACEFUL_NODE_SHUTDOWN_BASED_ON_POD_PRIORITY));
        String address = LogindInhibitor.systemBusAddress(env);
        kubelet.startNodeShutdownManager(periods,
                LogindInhibitor.connector(address, LogindInhibitor.LOGIND_CONFIG_DIRECTORY), syncNodeStatus)
                .ifPresent(error -> log.warn("{}: Failed to start node shutdown manager ({}): no systemd-logind inhibitor "
                        + "lock is taken and no shutdown is watched, so pods are not stopped before the machine goes "
                        + "down", settings(config), error));
    }

    /** The shutdown settings the configuration has, as the warning names them. */
    static String settings(KubeletConfiguration c) {
        StringJoiner set = new StringJoiner(", ");
        if (c.shutdownGracePeriod().isPositive()) {
            set.add("shutdownGracePeriod " + GoDuration.format(c.shutdownGracePeriod()));
        }
        if (c.shutdownGracePeriodCriticalPods().isPositive()) {
            set.add("shutdownGracePeriodCriticalPods " + GoDuration.format(c.shutdownGracePeriodCriticalPods()));
        }
        if (c.shutdownGracePeriodByPodPriority() != null && !c.shutdownGracePeriodByPodPriority().isEmpty()) {
            set.add("shutdownGracePeriodByPodPriority");
        }
        return set.toString();
    }
}
