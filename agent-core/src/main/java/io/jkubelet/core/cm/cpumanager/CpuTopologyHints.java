package io.jkubelet.core.cm.cpumanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.apis.config.CpuSet;
import io.jkubelet.core.cm.topologymanager.TopologyHint;
import io.jkubelet.core.podutil.PodSpecs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The static policy's topology hints for the {@code cpu} resource (upstream's {@code GetTopologyHints},
 * {@code GetPodTopologyHints} and {@code generateCPUTopologyHints}, v1.30): every combination of NUMA nodes whose free
 * CPUs (with the pod's reusable ones, all of which it must hold) can give the exclusive CPUs asked for; those with as
 * few nodes as the smallest combination that could hold the request on an empty machine are preferred. A container
 * without exclusive CPUs has no preference. Pure: the state is given.
 */
final class CpuTopologyHints {
    private static final Logger log = LoggerFactory.getLogger(CpuTopologyHints.class);
    static final String CPU = "cpu";

    private final StaticPolicy policy;

    CpuTopologyHints(StaticPolicy policy) {
        this.policy = policy;
    }

    /** The container's hints; its own CPUs' hints again when it already has them (a kubelet restart). */
    Map<String, List<TopologyHint>> containerHints(CpuManagerState state, Pod pod, Container container) {
        int requested = StaticPolicy.guaranteedCpus(pod, container);
        if (requested == 0) {
            return Map.of();
        }
        String uid = pod.getMetadata().getUid();
        CpuSet allocated = state.cpuSet(uid, container.getName());
        if (allocated != null) {
            if (allocated.size() != requested) {
                log.error("CPUs already allocated to container {} of pod {} with different number than request: "
                        + "requestedSize={} allocatedSize={}", container.getName(), PodSpecs.format(pod), requested,
                        allocated.size());
                // No placement can satisfy it: every policy but best-effort refuses the pod.
                return Map.of(CPU, List.of());
            }
            return Map.of(CPU, generate(allocated, CpuSet.EMPTY, requested));
        }
        return Map.of(CPU, generate(policy.availableCpus(state), policy.cpusToReuse(uid), requested));
    }

    /** The pod's hints: what its containers hold counted as reusable, all of it when they hold everything. */
    Map<String, List<TopologyHint>> podHints(CpuManagerState state, Pod pod) {
        int requested = podGuaranteedCpus(pod);
        if (requested == 0) {
            return Map.of();
        }
        String uid = pod.getMetadata().getUid();
        CpuSet assigned = CpuSet.EMPTY;
        for (Container c : PodSpecs.allContainers(pod)) {
            CpuSet allocated = state.cpuSet(uid, c.getName());
            if (allocated != null) {
                if (allocated.size() != StaticPolicy.guaranteedCpus(pod, c)) {
                    log.error("CPUs already allocated to container {} of pod {} with different number than request",
                            c.getName(), PodSpecs.format(pod));
                    return Map.of(CPU, List.of());
                }
                assigned = assigned.union(allocated);
            }
        }
        if (assigned.size() == requested) {
            return Map.of(CPU, generate(assigned, CpuSet.EMPTY, requested));
        }
        return Map.of(CPU, generate(policy.availableCpus(state), policy.cpusToReuse(uid).union(assigned), requested));
    }

    /**
     * Upstream {@code podGuaranteedCPUs}: the app containers' and sidecars' exclusive CPUs together, or the most an init
     * container needs with the sidecars started before it, whichever is larger.
     */
    static int podGuaranteedCpus(Pod pod) {
        int initMax = 0;
        int sidecars = 0;
        for (Container c : PodSpecs.initContainers(pod)) {
            int cpus = StaticPolicy.guaranteedCpus(pod, c);
            if (PodSpecs.isRestartableInitContainer(c)) {
                sidecars += cpus;
            } else {
                initMax = Math.max(initMax, sidecars + cpus);
            }
        }
        int apps = 0;
        for (Container c : PodSpecs.containers(pod)) {
            apps += StaticPolicy.guaranteedCpus(pod, c);
        }
        return Math.max(initMax, apps + sidecars);
    }

    /** Upstream {@code generateCPUTopologyHints}. */
    List<TopologyHint> generate(CpuSet available, CpuSet reusable, int request) {
        CpuTopology topo = policy.topology();
        Map<Integer, Integer> nodeOf = new HashMap<>();
        topo.details().forEach((cpu, info) -> nodeOf.put(cpu, info.numaNode()));
        return TopologyHint.narrowestPreferred(topo.numaNodes().toList(), request, mask -> {
            int cpusInMask = 0;
            for (int node : mask.nodes()) {
                cpusInMask += topo.cpusInNumaNode(node).size();
            }
            return cpusInMask;
        }, mask -> {
            int matching = 0;
            for (int cpu : reusable.cpus()) {
                if (!mask.isSet(nodeOf.getOrDefault(cpu, -1))) {
                    return -1;
                }
                matching++;
            }
            for (int cpu : available.cpus()) {
                if (mask.isSet(nodeOf.getOrDefault(cpu, -1))) {
                    matching++;
                }
            }
            return matching;
        });
    }
}
