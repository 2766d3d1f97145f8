package io.jkubelet.core.cm.cpumanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.checkpointmanager.CheckpointManager;
import io.jkubelet.core.cm.topologymanager.AdmissionError;
import io.jkubelet.core.cm.topologymanager.HintProvider;
import io.jkubelet.core.podutil.PodSpecs;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The CPU manager with the {@code static} policy (upstream's {@code manager}): its state restored from and written to
 * {@code <root-dir>/cpu_manager_state} after each change, each container's CPUs allocated at admission as a hint
 * provider of the topology manager, the CPUs a container runs on (its own, else the shared pool), and the assignments
 * of containers that are no longer active given back. Thread-safe.
 */
public final class CpuManager implements HintProvider {
    private final StaticPolicy policy;
    private final CpuManagerCheckpoint checkpoint;
    private final Duration reconcilePeriod;
    private CpuManagerState state;

    private CpuManager(StaticPolicy policy, CpuManagerCheckpoint checkpoint, Duration reconcilePeriod) {
        this.policy = policy;
        this.checkpoint = checkpoint;
        this.reconcilePeriod = reconcilePeriod;
    }

    /** {@code cpuManagerReconcilePeriod}: how often the containers' cpusets are brought up to date. */
    public Duration reconcilePeriod() {
        return reconcilePeriod;
    }

    /**
     * Upstream's {@code NewManager} for the static policy.
     *
     * @param reservedCpu the kube and system reservations' CPU (node allocatable's reservation), null when none is set
     * @param reservedSystemCpus {@code reservedSystemCPUs}, empty when not set
     * @param reconcilePeriod {@code cpuManagerReconcilePeriod}
     * @throws IllegalArgumentException with upstream's message when the reservation is missing or zero, or the policy
     *     cannot be made
     */
    public static CpuManager newStatic(CpuTopology topology, BigDecimal reservedCpu, CpuSet reservedSystemCpus,
                                       Map<String, String> options, Path rootDir, Duration reconcilePeriod) {
        if (reservedCpu == null) {
            throw new IllegalArgumentException("[cpumanager] unable to determine reserved CPU resources for static policy");
        }
        if (reservedCpu.signum() == 0) {
            throw new IllegalArgumentException("[cpumanager] the static policy requires systemreserved.cpu + "
                    + "kubereserved.cpu to be greater than zero");
        }
        // Fractional CPUs cannot be exclusive: the reservation is rounded up.
        int numReserved = reservedCpu.setScale(0, RoundingMode.CEILING).intValueExact();
        StaticPolicy policy;
        try {
            policy = new StaticPolicy(topology, numReserved, reservedSystemCpus, StaticPolicyOptions.parse(options));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("new static policy error: " + e.getMessage(), e);
        }
        return new CpuManager(policy, new CpuManagerCheckpoint(new CheckpointManager(rootDir), StaticPolicy.NAME),
                reconcilePeriod);
    }

    /**
     * Upstream's {@code Start}: the state file read (or written anew) and checked against the policy.
     *
     * @throws IllegalStateException with upstream's message when the file or its state does not fit; the kubelet stops
     */
    public synchronized void start() throws IOException {
        CpuManagerState restored = checkpoint.restore();
        policy.start(restored);
        state = restored;
        checkpoint.store(state);
    }

    /** Allocates the container's exclusive CPUs, if it should have some (upstream's {@code Allocate}). */
    @Override
    public synchronized void allocate(Pod pod, Container container) throws AdmissionError, IOException {
        policy.allocate(state, pod, container, CpuSet.EMPTY);
        checkpoint.store(state);
    }

    /** The CPUs the container runs on: its own, else the shared pool (upstream's {@code GetCPUSetOrDefault}). */
    public synchronized CpuSet cpuSet(String podUid, String container) {
        CpuSet own = state.cpuSet(podUid, container);
        return own != null ? own : state.defaultCpuSet();
    }

    /** The container's exclusive CPUs, empty when it has none (upstream's {@code GetExclusiveCPUs}, pod-resources). */
    public synchronized CpuSet exclusiveCpus(String podUid, String container) {
        CpuSet own = state.cpuSet(podUid, container);
        return own == null ? CpuSet.EMPTY : own;
    }

    /** The CPUs that may be exclusive (upstream's {@code GetAllocatableCPUs}, pod-resources). */
    public CpuSet allocatableCpus() {
        return policy.allocatableCpus();
    }

    /**
     * Upstream's {@code removeStaleState}: the CPUs of containers that are in no active pod go back to the shared pool.
     */
    public synchronized void removeStaleState(List<Pod> activePods) throws IOException {
        Set<String> active = new HashSet<>();
        for (Pod pod : activePods) {
            for (Container c : PodSpecs.allContainers(pod)) {
                active.add(pod.getMetadata().getUid() + "/" + c.getName());
            }
        }
        boolean changed = false;
        for (var pod : state.assignments().entrySet()) {
            for (String container : pod.getValue().keySet()) {
                if (!active.contains(pod.getKey() + "/" + container)) {
                    policy.removeContainer(state, pod.getKey(), container);
                    changed = true;
                }
            }
        }
        if (changed) {
            checkpoint.store(state);
        }
    }
}
