package io.jkubelet.core.cm.topologymanager;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The machine's NUMA nodes and the distances between them (upstream's {@code NUMAInfo}, from cAdvisor's topology),
 * and the two ways the policies choose between two equally preferred masks. Immutable.
 *
 * @param nodes the NUMA node IDs, ascending
 * @param distances each node's distance to every node by ID (sysfs {@code node<N>/distance}); a node without
 *     distances maps to an empty list
 */
public record NumaInfo(List<Integer> nodes, Map<Integer, List<Long>> distances) {

    public NumaInfo {
        nodes = nodes.stream().sorted().toList();
        distances = new TreeMap<>(distances);
    }

    /** Nodes without distances (a described machine, or one whose kernel gives none). */
    public static NumaInfo of(Integer... nodes) {
        return new NumaInfo(List.of(nodes), Map.of());
    }

    /** Every NUMA node of the machine: the affinity of "any node". */
    public BitMask defaultAffinityMask() {
        return BitMask.of(nodes);
    }

    /** Upstream {@code Narrowest}: fewer nodes, then lower-numbered ones. */
    public BitMask narrowest(BitMask m1, BitMask m2) {
        return m1.isNarrowerThan(m2) ? m1 : m2;
    }

    /**
     * Upstream {@code Closest} ({@code prefer-closest-numa-nodes}): fewer nodes first; among as many, the smaller
     * average distance between the mask's nodes; on equal distance the lower-numbered nodes.
     */
    public BitMask closest(BitMask m1, BitMask m2) {
        if (m1.count() != m2.count()) {
            return narrowest(m1, m2);
        }
        double d1 = averageDistance(m1);
        double d2 = averageDistance(m2);
        if (d1 == d2) {
            return m1.isLessThan(m2) ? m1 : m2;
        }
        return d1 < d2 ? m1 : m2;
    }

    /** Upstream {@code CalculateAverageFor}: the mean distance over every ordered pair of the mask's nodes. */
    double averageDistance(BitMask mask) {
        if (mask.count() == 0) {
            return 0;
        }
        double sum = 0;
        int count = 0;
        for (int from : mask.nodes()) {
            List<Long> row = distances.getOrDefault(from, List.of());
            for (int to : mask.nodes()) {
                sum += to < row.size() ? row.get(to) : 0;
                count++;
            }
        }
        return sum / count;
    }
}
