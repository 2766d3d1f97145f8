package io.jkubelet.core.cm;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.jkubelet.core.events.EventRecorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Upstream {@code enforceNodeAllocatableCgroups}: writes allocatable into the node allocatable cgroup (again every
 * minute until it takes: pods may use more than a lowered limit until eviction frees memory), and the reservations
 * into the {@code systemReservedCgroup} and {@code kubeReservedCgroup} when their enforcement is asked for. Each
 * outcome is an event on the node.
 */
final class NodeAllocatableEnforcement {
    private static final Logger log = LoggerFactory.getLogger(NodeAllocatableEnforcement.class);

    private final NodeConfig config;
    private final CgroupManager cgroups;
    private final CgroupName cgroupRoot;
    private final ResourceConfig allocatable;
    private final EventRecorder recorder;
    private final ObjectReference node;
    private final ScheduledExecutorService timers;
    private final Duration retryPeriod;

    NodeAllocatableEnforcement(NodeConfig config, CgroupManager cgroups, CgroupName cgroupRoot,
                               Map<String, BigDecimal> allocatable, EventRecorder recorder, ObjectReference node,
                               ScheduledExecutorService timers, Duration retryPeriod) {
        this.config = config;
        this.cgroups = cgroups;
        this.cgroupRoot = cgroupRoot;
        this.allocatable = ResourceConfig.forResources(NodeAllocatable.cgroupUnits(allocatable));
        this.recorder = recorder;
        this.node = node;
        this.timers = timers;
        this.retryPeriod = retryPeriod;
    }

    /** @throws CgroupException when a reserved cgroup cannot be limited; the message says which */
    void enforce() throws CgroupException {
        // The root cgroup itself is never limited: it is the whole machine.
        if (!cgroupRoot.isRoot()) {
            updateAllocatable();
        }
        if (config.enforceNodeAllocatable().contains(NodeConfig.ENFORCE_SYSTEM_RESERVED)) {
            enforceReserved("System Reserved", "system reserved", config.systemReservedCgroup(),
                    config.nodeAllocatable().systemReservedAmounts());
        }
        if (config.enforceNodeAllocatable().contains(NodeConfig.ENFORCE_KUBE_RESERVED)) {
            enforceReserved("Kube Reserved", "kube reserved", config.kubeReservedCgroup(),
                    config.nodeAllocatable().kubeReservedAmounts());
        }
    }

    private void updateAllocatable() {
        try {
            cgroups.update(cgroupRoot, allocatable);
            recorder.event(node, EventRecorder.NORMAL, LinuxContainerManager.SUCCESSFUL_ENFORCEMENT,
                    "Updated Node Allocatable limit across pods");
        } catch (CgroupException e) {
            recorder.event(node, EventRecorder.WARNING, LinuxContainerManager.FAILED_ENFORCEMENT,
                    "Failed to update Node Allocatable Limits " + cgroupRoot + ": " + e.getMessage());
            timers.schedule(this::updateAllocatable, retryPeriod.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Upstream {@code enforceExistingCgroup}: the operator makes the cgroup (and puts the daemons in it); the kubelet limits it. */
    private void enforceReserved(String title, String lower, String cgroup, Map<String, BigDecimal> reserved)
            throws CgroupException {
        CgroupName name = cgroups.driver().parse(cgroup);
        log.info("Enforcing {} on cgroup {} with limits {}", lower, cgroup, reserved);
        try {
            cgroups.validate(name);
            cgroups.update(name, ResourceConfig.forResources(NodeAllocatable.cgroupUnits(reserved)));
        } catch (CgroupException e) {
            String message = "Failed to enforce " + title + " Cgroup Limits on \"" + cgroup + "\": " + e.getMessage();
            recorder.event(node, EventRecorder.WARNING, LinuxContainerManager.FAILED_ENFORCEMENT, message);
            throw new CgroupException(message, e);
        }
        recorder.event(node, EventRecorder.NORMAL, LinuxContainerManager.SUCCESSFUL_ENFORCEMENT,
                "Updated limits on " + lower + " cgroup " + cgroup);
    }
}
