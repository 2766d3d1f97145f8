package io.jkubelet.core.cm.memorymanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.cm.topologymanager.BitMask;
import io.jkubelet.core.cm.topologymanager.TopologyHint;
import io.jkubelet.core.podutil.PodSpecs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The {@code Static} policy's topology hints for each memory type (upstream's {@code calculateHints},
 * {@code regenerateHints} and {@code findBestHint}, v1.30). A set of NUMA nodes is a hint when its allocatable memory
 * could hold the request, its free memory (with the pod's reusable init container memory) does, and it keeps the rule
 * that a node serves either single-node allocations or one group of nodes; the sets with as few nodes as the smallest
 * that could hold the request are preferred. A container that already has blocks gets them again as its only hints.
 */
final class MemoryTopologyHints {
    private static final Logger log = LoggerFactory.getLogger(MemoryTopologyHints.class);

    private final ReusableMemory reusable;

    MemoryTopologyHints(ReusableMemory reusable) {
        this.reusable = reusable;
    }

    /**
     * The hints of these requests on this machine state, the same list for every memory type asked for; an empty map
     * when no set of nodes can give them.
     */
    Map<String, List<TopologyHint>> calculate(Map<Integer, NumaNodeState> machine, Pod pod, Map<String, Long> requested) {
        Predicate<BitMask> couldHold = mask -> covers(requested, type -> sum(machine, mask.nodes(), type, false));
        List<TopologyHint> fits = TopologyHint.narrowestPreferred(new ArrayList<>(machine.keySet()), couldHold,
                mask -> couldHold.test(mask) && keepsGroups(machine, mask.nodes())
                        && covers(requested, type -> sum(machine, mask.nodes(), type, true) + reusable.get(pod, mask, type)));
        Map<String, List<TopologyHint>> hints = new TreeMap<>();
        if (!fits.isEmpty()) {
            requested.keySet().forEach(type -> hints.put(type, fits));
        }
        return hints;
    }

    private static boolean covers(Map<String, Long> requested, ToLongFunction<String> available) {
        return requested.entrySet().stream().allMatch(r -> available.applyAsLong(r.getKey()) >= r.getValue());
    }

    /** Upstream's rule for hints: a node that is part of a group cannot be a hint alone, nor break a group. */
    private static boolean keepsGroups(Map<Integer, NumaNodeState> machine, List<Integer> nodes) {
        if (nodes.size() == 1) {
            return machine.get(nodes.get(0)).cells.size() <= 1;
        }
        return !violatesNumaAllocations(machine, nodes);
    }

    /**
     * Upstream's {@code isAffinityViolatingNUMAAllocations}: a node serves either single-node allocations or one group
     * of nodes, so a node already used cannot join a group it is not already in.
     */
    static boolean violatesNumaAllocations(Map<Integer, NumaNodeState> machine, List<Integer> nodes) {
        if (nodes.size() == 1) {
            return false;
        }
        for (int id : nodes) {
            NumaNodeState node = machine.get(id);
            if (node.numberOfAssignments > 0 && (node.cells.size() == 1 || !node.cells.equals(nodes))) {
                return true;
            }
        }
        return false;
    }

    private static long sum(Map<Integer, NumaNodeState> machine, List<Integer> nodes, String type, boolean free) {
        long total = 0;
        for (int id : nodes) {
            MemoryTable t = machine.get(id).table(type);
            total += free ? t.free : t.allocatable;
        }
        return total;
    }

    /**
     * The blocks a container already has as its only, preferred hints (after a kubelet restart); null (no preference)
     * when they do not match what it asks for, as upstream logs and answers.
     */
    static Map<String, List<TopologyHint>> regenerate(Pod pod, Container container, List<MemoryBlock> blocks,
                                                      Map<String, Long> requested) {
        if (blocks.size() != requested.size()) {
            log.info("The number of requested resources by the container differs from the number of memory blocks: "
                    + "pod={} containerName={}", PodSpecs.format(pod), container.getName());
            return null;
        }
        Map<String, List<TopologyHint>> hints = new TreeMap<>();
        requested.keySet().forEach(type -> hints.put(type, new ArrayList<>()));
        for (MemoryBlock b : blocks) {
            Long size = requested.get(b.type());
            if (size == null || size != b.size()) {
                log.info("Memory already allocated with different numbers than requested: pod={} containerName={} "
                        + "type={}", PodSpecs.format(pod), container.getName(), b.type());
                return null;
            }
            hints.get(b.type()).add(new TopologyHint(BitMask.of(b.numaAffinity()), true));
        }
        return hints;
    }

    /** Upstream's {@code findBestHint}: a preferred hint before one that is not, then the narrowest. */
    static TopologyHint best(List<TopologyHint> hints) {
        TopologyHint best = TopologyHint.NONE;
        for (TopologyHint h : hints) {
            if (best.numaNodeAffinity() == null
                    || (h.preferred() && !best.preferred())
                    || (h.preferred() == best.preferred() && h.numaNodeAffinity().isNarrowerThan(best.numaNodeAffinity()))) {
                best = h;
            }
        }
        return best;
    }
}
