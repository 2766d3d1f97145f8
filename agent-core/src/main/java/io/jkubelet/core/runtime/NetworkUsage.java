package io.jkubelet.core.runtime;

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
}
