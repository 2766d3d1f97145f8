package io.jkubelet.core.container;

import java.time.Instant;
import java.util.List;

/**
 * A pod sandbox as the runtime reports it.
 *
 * @param ips the pod IPs, empty when the sandbox has none
 * @param hostNetwork whether the sandbox uses the node's network namespace
 */
public record SandboxStatus(String id, int attempt, boolean ready, Instant createdAt, List<String> ips,
                            boolean hostNetwork) {
    public SandboxStatus {
        ips = List.copyOf(ips);
    }
}
