package io.jkubelet.core.runtime;

import io.jkubelet.cadvisor.InterfaceStats;

import java.time.Instant;
import java.util.List;

/**
 * The network counters of a sandbox's network namespace (CRI {@code NetworkUsage}).
 *
 * @param interfaces every interface but loopback, in the order the kernel lists them
 */
public record NetworkUsage(Instant timestamp, List<NetworkInterfaceUsage> interfaces) {
    /** The interface the kubelet reports as the pod's own (upstream's {@code network.DefaultInterfaceName}). */
    public static final String DEFAULT_INTERFACE = "eth0";

    public NetworkUsage {
        interfaces = List.copyOf(interfaces);
    }

    /** The counters {@code /proc/<pid>/net/dev} showed at {@code timestamp} ({@link io.jkubelet.cadvisor.NetDev}). */
    public static NetworkUsage of(Instant timestamp, List<InterfaceStats> netDev) {
        return new NetworkUsage(timestamp, netDev.stream()
                .map(i -> new NetworkInterfaceUsage(i.name(), i.rxBytes(), i.rxErrors(), i.txBytes(), i.txErrors()))
                .toList());
    }
}
