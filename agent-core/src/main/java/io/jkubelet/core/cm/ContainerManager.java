package io.jkubelet.core.cm;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.events.EventRecorder;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * Protects the node from its pods (upstream {@code cm.ContainerManager}): the node allocatable cgroup, the QoS
 * cgroups and each pod's cgroup, and the reservations taken off the node's capacity. Thread-safe.
 */
public interface ContainerManager {

    /**
     * Checks the reservations against the capacity, creates the {@code kubepods} and QoS cgroups and enforces node
     * allocatable, then keeps the QoS cgroups up to date every minute on {@code timers}. Called once, before any
     * pod is synced.
     *
     * @param activePods the pods that are neither terminated nor finished (upstream {@code GetActivePods})
     * @throws CgroupException when the node cannot be set up; the kubelet must not run pods then
     */
    void start(Supplier<List<Pod>> activePods, ScheduledExecutorService timers, EventRecorder recorder, String nodeName)
            throws CgroupException;

    /** The pod cgroups (upstream {@code NewPodContainerManager}). */
    PodContainerManager podContainerManager();

    /** Brings the QoS cgroups' CPU shares up to date with the active pods, as pods come and go. */
    void updateQosCgroups() throws CgroupException;

    /** Whether pods get cgroups of their own ({@code cgroupsPerQOS}). */
    boolean cgroupsPerQos();

    /**
     * The cgroup all pods run in, in the driver's form ({@code /kubepods} below the cgroup root), when pods get cgroups
     * of their own (upstream {@code GetPodCgroupRoot}): the stats summary's {@code pods} system container.
     */
    default Optional<String> podCgroupRoot() {
        return Optional.empty();
    }

    /** What is reserved of each resource of {@code capacity} (upstream {@code GetNodeAllocatableReservation}). */
    Map<String, BigDecimal> nodeAllocatableReservation(Map<String, Quantity> capacity);

    /**
     * Nothing to protect (upstream {@code containerManagerStub}): no cgroups, nothing reserved. For tests of the
     * kubelet's other parts, and for hosts without cgroups.
     */
    static ContainerManager stub() {
        return new ContainerManager() {
            @Override
            public void start(Supplier<List<Pod>> activePods, ScheduledExecutorService timers, EventRecorder recorder,
                              String nodeName) {
            }

            @Override
            public PodContainerManager podContainerManager() {
                return PodContainerManager.NOOP;
            }

            @Override
            public void updateQosCgroups() {
            }

            @Override
            public boolean cgroupsPerQos() {
                return false;
            }

            @Override
            public Map<String, BigDecimal> nodeAllocatableReservation(Map<String, Quantity> capacity) {
                return Map.of();
            }
        };
    }
}
