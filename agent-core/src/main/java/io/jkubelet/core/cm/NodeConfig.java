package io.jkubelet.core.cm;

import io.jkubelet.core.apis.config.KubeletConfiguration;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The configuration the container manager acts on (upstream {@code cm.NodeConfig}), taken from the kubelet's.
 *
 * @param cgroupRoot {@code cgroupRoot}; {@code /} when pods get cgroups and none is given (upstream's default)
 * @param enforceCpuLimits {@code cpuCFSQuota}
 * @param cpuCfsQuotaPeriod {@code cpuCFSQuotaPeriod}
 * @param podPidsLimit {@code podPidsLimit}; -1 for none of its own
 * @param enforceNodeAllocatable {@code enforceNodeAllocatable}: {@code pods}, {@code system-reserved},
 *     {@code kube-reserved}
 */
public record NodeConfig(boolean cgroupsPerQos, String cgroupRoot, CgroupDriver cgroupDriver, boolean enforceCpuLimits,
                         Duration cpuCfsQuotaPeriod, long podPidsLimit, NodeAllocatable nodeAllocatable,
                         Set<String> enforceNodeAllocatable, String systemReservedCgroup, String kubeReservedCgroup) {
    public static final String ENFORCE_PODS = "pods";
    public static final String ENFORCE_SYSTEM_RESERVED = "system-reserved";
    public static final String ENFORCE_KUBE_RESERVED = "kube-reserved";

    public NodeConfig {
        enforceNodeAllocatable = Set.copyOf(enforceNodeAllocatable);
    }

    /** From a defaulted and validated configuration. */
    public static NodeConfig from(KubeletConfiguration c) {
        boolean perQos = !Boolean.FALSE.equals(c.cgroupsPerQOS());
        String root = c.cgroupRoot() == null ? "" : c.cgroupRoot();
        if (perQos && root.isEmpty()) {
            root = "/";
        }
        List<String> enforce = c.enforceNodeAllocatable() == null ? List.of() : c.enforceNodeAllocatable();
        return new NodeConfig(perQos, root, CgroupDriver.of(c.cgroupDriver()), !Boolean.FALSE.equals(c.cpuCFSQuota()),
                c.cpuCFSQuotaPeriod() == null ? Duration.ofMillis(100) : c.cpuCFSQuotaPeriod(),
                c.podPidsLimit() == null ? -1 : c.podPidsLimit(),
                new NodeAllocatable(c.systemReserved(), c.kubeReserved(), c.evictionHard()),
                enforce.stream().filter(e -> !e.equals("none")).collect(Collectors.toSet()),
                nullToEmpty(c.systemReservedCgroup()), nullToEmpty(c.kubeReservedCgroup()));
    }

    /** The CFS period in microseconds, as the kernel takes it. */
    public long cpuCfsQuotaPeriodUs() {
        return cpuCfsQuotaPeriod.toNanos() / 1000;
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
