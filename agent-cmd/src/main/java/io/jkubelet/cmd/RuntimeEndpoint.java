package io.jkubelet.cmd;

import java.util.Locale;

/**
 * Which adapter {@code containerRuntimeEndpoint} names, as a user expects: a Docker socket
 * ({@code unix:///var/run/docker.sock}, any socket named {@code docker.sock}, or a {@code tcp://} endpoint) is the
 * Docker engine's; any other endpoint (upstream's default {@code unix:///run/containerd/containerd.sock}, CRI-O's
 * {@code unix:///var/run/crio/crio.sock}) a CRI runtime's.
 */
final class RuntimeEndpoint {

    private RuntimeEndpoint() {
    }

    /** Whether {@code endpoint} names a Docker engine rather than a CRI runtime. */
    static boolean isDocker(String endpoint) {
        String e = endpoint.strip().toLowerCase(Locale.ROOT);
        return e.startsWith("tcp://") || e.endsWith("/docker.sock") || e.equals("docker.sock");
    }
}
