package io.jkubelet.core.cm.cpumanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.checkpointmanager.CheckpointManager;
import io.jkubelet.core.cm.PinningMetrics;
import io.jkubelet.core.cm.StaleContainers;
import io.jkubelet.core.cm.topologymanager.AdmissionError;
import io.jkubelet.core.cm.topologymanager.HintProvider;
import io.jkubelet.core.cm.topologymanager.TopologyAffinityStore;
import io.jkubelet.core.cm.topologymanager.TopologyHint;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The CPU manager with the {@code static} policy (upstream's {@code manager}): its state restored from and written to
 * {@code <root-dir>/cpu_manager_state} after each change, each container's CPUs allocated at admission as a hint
 * provider of the topology manager, the CPUs a container runs on (its own, else the shared pool), and the assignments
 * of containers that are no longer active given back. Thread-safe.
 */
public final class CpuManager implements HintProvider {
    private final StaticPolicy policy;
    private final CpuTopologyHints hints;
    private final TopologyAffinityStore affinity;
    private final CpuManagerCheckpoint checkpoint;
    private final Duration reconcilePeriod;
    private CpuManagerState state;
    private volatile PinningMetrics pinning = PinningMetrics.NONE;

    private CpuManager(StaticPolicy policy, TopologyAffinityStore affinity, CpuManagerCheckpoint checkpoint,
                       Duration reconcilePeriod) {
        this.policy = policy;
        this.hints = new CpuTopologyHints(policy);
        this.affinity = affinity;
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
     * @param affinity the topology manager, whose admitted NUMA nodes each container's CPUs are taken from first
     * @throws IllegalArgumentException with upstream's message when the reservation is missing or zero, or the policy
     *     cannot be made
     */
    public static CpuManager newStatic(CpuTopology topology, BigDecimal reservedCpu, CpuSet reservedSystemCpus,
                                       Map<String, String> options, Path rootDir, Duration reconcilePeriod,
                                       TopologyAffinityStore affinity) {
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
        return new CpuManager(policy, affinity, new CpuManagerCheckpoint(new CheckpointManager(rootDir), StaticPolicy.NAME),
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

    /** Counts each allocation of exclusive CPUs, and each that fails, from now on (the kubelet's metrics). */
    public void observePinning(PinningMetrics metrics) {
        this.pinning = metrics;
    }

    /**
     * Allocates the container's exclusive CPUs, if it should have some (upstream's {@code Allocate}), from the NUMA
     * nodes the topology manager admitted it with first. As upstream's static policy, every container that should have
     * CPUs of its own is counted as a pinning request (one that already has them too), and each refusal as an error.
     */
    @Override
    public synchronized void allocate(Pod pod, Container container) throws AdmissionError, IOException {
        if (StaticPolicy.guaranteedCpus(pod, container) == 0) {
            return; // the shared pool: nothing to pin, nothing changes
        }
        pinning.requested();
        TopologyHint hint = affinity.getAffinity(pod.getMetadata().getUid(), container.getName());
        try {
            policy.allocate(state, pod, container, hint.numaNodeAffinity());
        } catch (AdmissionError | RuntimeException e) {
            pinning.failed();
            throw e;
        }
        checkpoint.store(state);
    }

    /** Upstream's {@code GetTopologyHints}: the {@code cpu} hints of a container with exclusive CPUs. */
    @Override
    public synchronized Map<String, List<TopologyHint>> getTopologyHints(Pod pod, Container container) {
        return hints.containerHints(state, pod, container);
    }

    /** Upstream's {@code GetPodTopologyHints}: the {@code cpu} hints of all of a pod's exclusive CPUs. */
    @Override
    public synchronized Map<String, List<TopologyHint>> getPodTopologyHints(Pod pod) {
        return hints.podHints(state, pod);
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
        List<StaleContainers.Ref> stale = StaleContainers.of(state.assignments(), activePods);
        stale.forEach(c -> policy.removeContainer(state, c.podUid(), c.containerName()));
        if (!stale.isEmpty()) {
            checkpoint.store(state);
        }
    }
}
