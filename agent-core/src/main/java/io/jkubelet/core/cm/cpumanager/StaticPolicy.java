package io.jkubelet.core.cm.cpumanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.cm.topologymanager.AdmissionError;
import io.jkubelet.core.cm.topologymanager.BitMask;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.qos.QosClass;
import org.jspecify.annotations.Nullable;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;

/**
 * The CPU manager's {@code static} policy (upstream's {@code staticPolicy}, v1.30): a container of a Guaranteed pod
 * with an integer CPU request gets that many CPUs of its own, taken by topology ({@link CpuAccumulator}) from the
 * shared pool minus the reserved CPUs; every other container runs on the shared pool. The reserved CPUs are
 * {@code reservedSystemCPUs}, or else as many as the kube and system reservations' CPU, taken by topology from the
 * lowest cores. An init container's CPUs are given again to the app containers after it. Pure: the state is given.
 */
public final class StaticPolicy {
    public static final String NAME = "static";
    /** Upstream's {@code ErrorSMTAlignment}: the rejection reason under {@code full-pcpus-only}. */
    public static final String SMT_ALIGNMENT_ERROR = "SMTAlignmentError";

    private final CpuTopology topology;
    private final CpuSet reserved;
    private final CpuSet reservedPhysicalCpus;
    private final StaticPolicyOptions options;
    /** Upstream's {@code cpusToReuse}: the CPUs of the pod being admitted that its init containers had. */
    private final Map<String, CpuSet> cpusToReuse = new HashMap<>();

    /**
     * Upstream's {@code NewStaticPolicy}.
     *
     * @param numReservedCpus the kube and system reservations' CPU, rounded up
     * @param reservedCpus {@code reservedSystemCPUs}, empty when not set
     * @throws IllegalArgumentException with upstream's message when the reserved CPUs cannot be had
     */
    public StaticPolicy(CpuTopology topology, int numReservedCpus, CpuSet reservedCpus, StaticPolicyOptions options) {
        this.topology = topology;
        this.options = options;
        CpuSet chosen;
        if (reservedCpus.size() > 0) {
            chosen = reservedCpus;
        } else {
            try {
                chosen = CpuAccumulator.take(topology, topology.cpus(), numReservedCpus);
            } catch (IllegalStateException e) {
                chosen = CpuSet.EMPTY;
            }
        }
        if (chosen.size() != numReservedCpus) {
            throw new IllegalArgumentException("[cpumanager] unable to reserve the required amount of CPUs (size of "
                    + chosen + " did not equal " + numReservedCpus + ")");
        }
        this.reserved = chosen;
        // Reserved CPUs that are not whole cores would let full-pcpus-only hand out a core's lone sibling: their whole
        // cores are kept from exclusive use under that option (v1.30).
        CpuSet cores = CpuSet.EMPTY;
        for (int cpu : chosen.cpus()) {
            cores = cores.union(topology.cpusInCore(topology.coreOf(cpu)));
        }
        this.reservedPhysicalCpus = cores;
    }

    public CpuSet reserved() {
        return reserved;
    }

    /**
     * Upstream's {@code Start}/{@code validateState}: a fresh state gets every CPU as its shared pool; a state read from
     * the file must keep the reserved CPUs shared, no container's CPUs shared, and the machine's CPUs.
     *
     * @throws IllegalStateException with upstream's message when it does not
     */
    public void start(CpuManagerState state) {
        Map<String, Map<String, CpuSet>> assignments = state.assignments();
        CpuSet shared = state.defaultCpuSet();
        if (shared.isEmpty()) {
            if (!assignments.isEmpty()) {
                throw new IllegalStateException("default cpuset cannot be empty");
            }
            state.setDefaultCpuSet(topology.cpus());
            return;
        }
        if (!reserved.intersection(shared).equals(reserved)) {
            throw new IllegalStateException("not all reserved cpus: \"" + reserved + "\" are present in defaultCpuSet: \""
                    + shared + "\"");
        }
        CpuSet known = shared;
        for (var pod : assignments.entrySet()) {
            for (var c : pod.getValue().entrySet()) {
                if (!shared.intersection(c.getValue()).isEmpty()) {
                    throw new IllegalStateException("pod: " + pod.getKey() + ", container: " + c.getKey() + " cpuset: \""
                            + c.getValue() + "\" overlaps with default cpuset \"" + shared + "\"");
                }
                known = known.union(c.getValue());
            }
        }
        if (!known.equals(topology.cpus())) {
            throw new IllegalStateException("current set of available CPUs \"" + topology.cpus()
                    + "\" doesn't match with CPUs in state \"" + known + "\"");
        }
    }

    /** Upstream's {@code GetAllocatableCPUs}: the CPUs that may be exclusive. */
    public CpuSet allocatableCpus() {
        return topology.cpus().difference(reserved);
    }

    /** Upstream's {@code GetAvailableCPUs}: the shared pool less the reserved CPUs. */
    public CpuSet availableCpus(CpuManagerState state) {
        return state.defaultCpuSet().difference(reserved);
    }

    /**
     * Upstream's {@code Allocate}: exclusive CPUs for the container when it should have some and has none yet.
     *
     * @param numaAffinity the topology manager's NUMA nodes for the container (upstream's {@code GetAffinity}), null for
     *     no preference: its free CPUs are taken first
     * @throws AdmissionError {@code SMTAlignmentError} under {@code full-pcpus-only}
     * @throws IllegalStateException when the CPUs cannot be had (upstream's message)
     */
    public void allocate(CpuManagerState state, Pod pod, Container container, @Nullable BitMask numaAffinity)
            throws AdmissionError {
        int numCpus = guaranteedCpus(pod, container);
        if (numCpus == 0) {
            return;
        }
        String uid = pod.getMetadata().getUid();
        if (options.fullPhysicalCpusOnly()) {
            int perCore = topology.cpusPerCore();
            if (numCpus % perCore != 0) {
                throw new AdmissionError(SMT_ALIGNMENT_ERROR, "SMT Alignment Error: requested " + numCpus
                        + " cpus not multiple cpus per core = " + perCore);
            }
            int availablePhysical = state.defaultCpuSet().difference(reservedPhysicalCpus).size();
            if (numCpus > availablePhysical) {
                throw new AdmissionError(SMT_ALIGNMENT_ERROR, "SMT Alignment Error: not enough free physical CPUs: "
                        + "available physical CPUs = " + availablePhysical + ", requested CPUs = " + numCpus
                        + ", CPUs per core = " + perCore);
            }
        }
        CpuSet had = state.cpuSet(uid, container.getName());
        if (had != null) {
            updateCpusToReuse(pod, container, had);
            return;
        }
        CpuSet cpus = allocateCpus(state, numCpus, numaAffinity, cpusToReuse.getOrDefault(uid, CpuSet.EMPTY));
        state.setCpuSet(uid, container.getName(), cpus);
        updateCpusToReuse(pod, container, cpus);
    }

    /** Upstream's {@code cpusToReuse} of the pod being admitted: what its init containers had; empty for another pod. */
    public CpuSet cpusToReuse(String podUid) {
        return cpusToReuse.getOrDefault(podUid, CpuSet.EMPTY);
    }

    public CpuTopology topology() {
        return topology;
    }

    /** Upstream's {@code RemoveContainer}: its CPUs go back to the shared pool, but those a sibling still holds. */
    public void removeContainer(CpuManagerState state, String podUid, String container) {
        CpuSet released = state.cpuSet(podUid, container);
        if (released == null) {
            return;
        }
        CpuSet inUse = CpuSet.EMPTY;
        for (var e : state.assignments().getOrDefault(podUid, Map.of()).entrySet()) {
            if (!e.getKey().equals(container)) {
                inUse = inUse.union(e.getValue());
            }
        }
        state.delete(podUid, container);
        state.setDefaultCpuSet(state.defaultCpuSet().union(released.difference(inUse)));
    }

    private CpuSet allocateCpus(CpuManagerState state, int numCpus, @Nullable BitMask numaAffinity, CpuSet reusable) {
        CpuSet allocatable = availableCpus(state).union(reusable);
        CpuSet result = CpuSet.EMPTY;
        if (numaAffinity != null) {
            CpuSet aligned = CpuSet.EMPTY;
            for (int node : numaAffinity.nodes()) {
                aligned = aligned.union(allocatable.intersection(topology.cpusInNumaNode(node)));
            }
            result = CpuAccumulator.take(topology, aligned, Math.min(numCpus, aligned.size()));
        }
        result = result.union(CpuAccumulator.take(topology, allocatable.difference(result), numCpus - result.size()));
        state.setDefaultCpuSet(state.defaultCpuSet().difference(result));
        return result;
    }

    /**
     * Upstream's {@code updateCPUsToReuse}: an init container's CPUs may be given again to the containers after it, an
     * app container's or a sidecar's may not; only the pod being admitted keeps an entry.
     */
    private void updateCpusToReuse(Pod pod, Container container, CpuSet cpus) {
        String uid = pod.getMetadata().getUid();
        cpusToReuse.keySet().removeIf(k -> !k.equals(uid));
        CpuSet reuse = cpusToReuse.getOrDefault(uid, CpuSet.EMPTY);
        for (Container init : PodSpecs.initContainers(pod)) {
            // A sidecar runs beside the app containers: its CPUs are its own, as an app container's.
            if (init.getName().equals(container.getName()) && !PodSpecs.isRestartableInitContainer(init)) {
                cpusToReuse.put(uid, reuse.union(cpus));
                return;
            }
        }
        cpusToReuse.put(uid, reuse.difference(cpus));
    }

    /** Upstream's {@code guaranteedCPUs}: the container's CPU request when the pod is Guaranteed and it is whole. */
    public static int guaranteedCpus(Pod pod, Container container) {
        if (QosClass.of(pod) != QosClass.GUARANTEED || container.getResources() == null
                || container.getResources().getRequests() == null) {
            return 0;
        }
        Quantity cpu = container.getResources().getRequests().get("cpu");
        if (cpu == null) {
            return 0;
        }
        BigDecimal cores = cpu.getNumericalAmount();
        if (cores.signum() <= 0 || cores.stripTrailingZeros().scale() > 0) {
            return 0;
        }
        return cores.intValueExact();
    }
}
