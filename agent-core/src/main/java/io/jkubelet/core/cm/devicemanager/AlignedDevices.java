package io.jkubelet.core.cm.devicemanager;

import io.jkubelet.core.cm.topologymanager.BitMask;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Upstream's {@code filterByAffinity}: the free devices of a resource split by the container's admitted NUMA nodes.
 * Each list is ordered by the NUMA node that places the device (a device on several nodes counts for the first of
 * them in that order): the affinity's nodes, then the others, each by how few free devices they have, ties by the lower
 * node ID, then within one node by device ID.
 *
 * @param aligned devices on a NUMA node of the affinity
 * @param unaligned devices on other NUMA nodes only
 * @param noAffinity devices without a NUMA node (or all free devices, when there is no affinity)
 */
record AlignedDevices(Set<String> aligned, Set<String> unaligned, Set<String> noAffinity) {

    /**
     * @param affinity the admitted NUMA nodes; null for none, which leaves every device in {@code noAffinity}
     * @param devices what the resource's plugin reported, by ID
     */
    static AlignedDevices filter(Set<String> available, Map<String, Device> devices, BitMask affinity,
                                 boolean resourceHasTopology) {
        Set<String> sorted = new TreeSet<>(available);
        if (affinity == null || !resourceHasTopology) {
            return new AlignedDevices(Set.of(), Set.of(), new LinkedHashSet<>(sorted));
        }
        Map<Integer, List<String>> perNode = new HashMap<>();
        for (String id : sorted) {
            Device d = devices.get(id);
            if (d == null || !d.hasTopology()) {
                perNode.computeIfAbsent(-1, k -> new ArrayList<>()).add(id);
            } else {
                d.numaNodes().forEach(n -> perNode.computeIfAbsent(n.intValue(), k -> new ArrayList<>()).add(id));
            }
        }
        List<Integer> nodes = new ArrayList<>(perNode.keySet());
        nodes.sort(Comparator.<Integer>comparingInt(n -> group(n, affinity))
                .thenComparingInt(n -> perNode.get(n).size()).thenComparingInt(n -> n));
        Set<String> aligned = new LinkedHashSet<>();
        Set<String> unaligned = new LinkedHashSet<>();
        Set<String> none = new LinkedHashSet<>();
        Set<String> placed = new java.util.HashSet<>();
        for (int n : nodes) {
            for (String id : perNode.get(n)) {
                if (!placed.add(id)) {
                    continue;
                }
                (n == -1 ? none : affinity.isSet(n) ? aligned : unaligned).add(id);
            }
        }
        return new AlignedDevices(aligned, unaligned, none);
    }

    /** The affinity's nodes first, then other real nodes, then the devices without a node. */
    private static int group(int node, BitMask affinity) {
        if (affinity.isSet(node)) {
            return 0;
        }
        return node == -1 ? 2 : 1;
    }
}
