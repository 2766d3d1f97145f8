package io.jkubelet.core.cm;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.qos.QosClass;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Pod cgroups below the QoS cgroups (upstream {@code podContainerManagerImpl}). */
final class PodCgroups implements PodContainerManager {
    private static final Logger log = LoggerFactory.getLogger(PodCgroups.class);
    static final String POD_CGROUP_PREFIX = "pod";
    /** How often a pod cgroup's processes are killed before giving up until the next try (upstream's 5). */
    private static final int KILL_ATTEMPTS = 5;

    private final CgroupManager cgroups;
    private final QosContainerManager qos;
    private final boolean enforceCpuLimits;
    private final long cpuPeriodUs;
    private final long podPidsLimit;

    /**
     * @param enforceCpuLimits {@code cpuCFSQuota}
     * @param cpuPeriodUs {@code cpuCFSQuotaPeriod} in microseconds
     * @param podPidsLimit {@code podPidsLimit}; zero or less sets no limit of its own
     */
    PodCgroups(CgroupManager cgroups, QosContainerManager qos, boolean enforceCpuLimits, long cpuPeriodUs,
               long podPidsLimit) {
        this.cgroups = cgroups;
        this.qos = qos;
        this.enforceCpuLimits = enforceCpuLimits;
        this.cpuPeriodUs = cpuPeriodUs;
        this.podPidsLimit = podPidsLimit;
    }

    @Override
    public boolean exists(Pod pod) {
        return cgroups.exists(name(pod));
    }

    @Override
    public void ensureExists(Pod pod) throws CgroupException {
        if (exists(pod)) {
            return;
        }
        ResourceConfig limits = ResourceConfig.forPod(pod, enforceCpuLimits, cpuPeriodUs);
        if (podPidsLimit > 0) {
            limits = limits.withPidsLimit(podPidsLimit);
        }
        try {
            cgroups.create(name(pod), limits);
        } catch (CgroupException e) {
            throw new CgroupException("failed to create container for " + name(pod) + " : " + e.getMessage(), e);
        }
    }

    @Override
    public CgroupName name(Pod pod) {
        return qos.parentOf(QosClass.of(pod)).child(POD_CGROUP_PREFIX + pod.getMetadata().getUid());
    }

    @Override
    public String cgroupParent(Pod pod) {
        return cgroups.path(name(pod));
    }

    @Override
    public void destroy(CgroupName podCgroup) throws CgroupException {
        killProcesses(podCgroup);
        try {
            cgroups.destroy(podCgroup);
        } catch (CgroupException e) {
            throw new CgroupException("failed to delete cgroup paths for " + podCgroup + " : " + e.getMessage(), e);
        }
    }

    /** SIGKILL to whatever is left in the pod's cgroup or its containers' (upstream {@code tryKillingCgroupProcesses}). */
    private void killProcesses(CgroupName podCgroup) throws CgroupException {
        Set<Long> pids = cgroups.pids(podCgroup);
        List<Long> left = new ArrayList<>(pids);
        for (int attempt = 0; attempt < KILL_ATTEMPTS && !left.isEmpty(); attempt++) {
            left.removeIf(pid -> {
                log.debug("Attempting to kill process {} from cgroup {}", pid, podCgroup);
                Optional<ProcessHandle> p = ProcessHandle.of(pid);
                return p.isEmpty() || p.get().destroyForcibly() || !p.get().isAlive();
            });
        }
        if (!left.isEmpty()) {
            throw new CgroupException("failed to kill all the processes attached to the " + podCgroup
                    + " cgroups : processes " + left + " could not be killed");
        }
    }

    @Override
    public void reduceCpuLimits(CgroupName podCgroup) throws CgroupException {
        cgroups.reduceCpuLimits(podCgroup);
    }

    @Override
    public Map<String, CgroupName> allPodsFromCgroups() throws CgroupException {
        Map<String, CgroupName> found = new LinkedHashMap<>();
        for (CgroupName parent : qos.all()) {
            String parentPath = cgroups.path(parent);
            for (String child : cgroups.children(parent)) {
                // Read back through the driver: the systemd form encodes the whole path in each step.
                CgroupName name = cgroups.driver().parse(parentPath + "/" + child);
                String base = name.last();
                if (!base.startsWith(POD_CGROUP_PREFIX) || base.length() == POD_CGROUP_PREFIX.length()) {
                    continue; // burstable and besteffort below kubepods, or something not ours
                }
                found.put(base.substring(POD_CGROUP_PREFIX.length()), name);
            }
        }
        return found;
    }
}
