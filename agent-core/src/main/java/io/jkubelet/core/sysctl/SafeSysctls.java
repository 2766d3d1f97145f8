package io.jkubelet.core.sysctl;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The sysctls every pod may set (upstream 1.30's {@code SafeSysctlAllowlist}): namespaced and without influence on
 * other pods of the node. Some were namespaced only from a kernel version on, and are safe only on such kernels.
 */
public final class SafeSysctls {
    private static final Logger log = LoggerFactory.getLogger(SafeSysctls.class);

    /** A safe sysctl and the first kernel (major, minor) that namespaces it; 0.0 for any kernel. */
    private record Safe(String name, int major, int minor) {}

    private static final List<Safe> SAFE = List.of(
            new Safe("kernel.shm_rmid_forced", 0, 0),
            new Safe("net.ipv4.ip_local_port_range", 0, 0),
            new Safe("net.ipv4.tcp_syncookies", 0, 0),
            new Safe("net.ipv4.ping_group_range", 0, 0),
            new Safe("net.ipv4.ip_unprivileged_port_start", 0, 0),
            new Safe("net.ipv4.ip_local_reserved_ports", 3, 16),
            new Safe("net.ipv4.tcp_keepalive_time", 4, 5),
            new Safe("net.ipv4.tcp_fin_timeout", 4, 6),
            new Safe("net.ipv4.tcp_keepalive_intvl", 4, 5),
            new Safe("net.ipv4.tcp_keepalive_probes", 4, 5));

    private SafeSysctls() {}

    /** The safe sysctls on this machine's kernel. */
    public static List<String> forThisKernel() {
        return forKernel(System.getProperty("os.version", ""));
    }

    /**
     * The safe sysctls on a kernel of this release ({@code uname -r}, e.g. {@code 6.1.0-18-amd64}); one that does not
     * parse keeps only those safe on any kernel, as upstream when it cannot read the version.
     */
    public static List<String> forKernel(String release) {
        int[] version = parse(release);
        if (version == null) {
            log.error("Failed to get kernel version from \"{}\", unable to determine which sysctls are available",
                    release);
        }
        List<String> safe = new ArrayList<>();
        for (Safe s : SAFE) {
            boolean namespaced = s.major() == 0 || version != null
                    && (version[0] > s.major() || version[0] == s.major() && version[1] >= s.minor());
            if (namespaced) {
                safe.add(s.name());
            } else {
                log.info("kernel version is too old, dropping the sysctl from safe sysctl list kernelVersion=\"{}\" "
                        + "sysctl=\"{}\"", release, s.name());
            }
        }
        return List.copyOf(safe);
    }

    private static int[] parse(String release) {
        String[] parts = release.split("[^0-9]", 3);
        if (parts.length < 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
            return null;
        }
        return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
    }
}
