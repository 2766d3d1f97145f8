package io.jkubelet.core.stats.summary;

import java.time.Instant;
import java.util.List;

/**
 * Upstream {@code NetworkStats}: the default interface's counters inlined (so JSON has {@code name},
 * {@code rxBytes}, ... at this level; {@code defaultInterface} may be null when there is no {@code eth0}),
 * and every interface.
 */
public record NetworkStats(Instant time, InterfaceStats defaultInterface, List<InterfaceStats> interfaces) {
    public NetworkStats {
        interfaces = interfaces == null ? List.of() : List.copyOf(interfaces);
    }
}
