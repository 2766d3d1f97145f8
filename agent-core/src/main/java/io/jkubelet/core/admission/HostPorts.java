package io.jkubelet.core.admission;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The host ports the admitted pods use, by host IP (upstream {@code HostPortInfo}): a port bound on
 * {@code 0.0.0.0} conflicts with the same protocol and port on any IP. Only app containers' ports with a
 * {@code hostPort} count, as the scheduler's NodePorts plugin counts them.
 */
public final class HostPorts {
    static final String BIND_ALL = "0.0.0.0";

    private record ProtocolPort(String protocol, int port) {}

    private final Map<String, Set<ProtocolPort>> byIp = new HashMap<>();

    public static HostPorts of(List<Pod> pods) {
        HostPorts used = new HostPorts();
        for (Pod p : pods) {
            for (ContainerPort cp : wanted(p)) {
                used.byIp.computeIfAbsent(ip(cp), k -> new HashSet<>()).add(key(cp));
            }
        }
        return used;
    }

    /** The pod's container ports that ask for a host port. */
    public static List<ContainerPort> wanted(Pod pod) {
        List<ContainerPort> out = new ArrayList<>();
        for (Container c : pod.getSpec().getContainers() == null ? List.<Container>of() : pod.getSpec().getContainers()) {
            for (ContainerPort cp : c.getPorts() == null ? List.<ContainerPort>of() : c.getPorts()) {
                if (cp.getHostPort() != null && cp.getHostPort() > 0) {
                    out.add(cp);
                }
            }
        }
        return out;
    }

    public boolean conflicts(ContainerPort cp) {
        ProtocolPort key = key(cp);
        String ip = ip(cp);
        if (BIND_ALL.equals(ip)) {
            return byIp.values().stream().anyMatch(s -> s.contains(key));
        }
        return byIp.getOrDefault(BIND_ALL, Set.of()).contains(key) || byIp.getOrDefault(ip, Set.of()).contains(key);
    }

    private static String ip(ContainerPort cp) {
        return cp.getHostIP() == null || cp.getHostIP().isEmpty() ? BIND_ALL : cp.getHostIP();
    }

    private static ProtocolPort key(ContainerPort cp) {
        return new ProtocolPort(cp.getProtocol() == null || cp.getProtocol().isEmpty() ? "TCP" : cp.getProtocol(),
                cp.getHostPort());
    }
}
