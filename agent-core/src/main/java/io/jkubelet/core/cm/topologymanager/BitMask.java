package io.jkubelet.core.cm.topologymanager;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

/**
 * A set of NUMA nodes as upstream's {@code bitmask.BitMask}: one bit per node ID below 64. Immutable.
 *
 * @param bits bit {@code n} set for NUMA node {@code n}
 */
public record BitMask(long bits) {

    /**
     * The mask of these NUMA nodes.
     *
     * @throws IllegalArgumentException with upstream's message for a node ID outside 0..63
     */
    public static BitMask of(int... nodes) {
        long bits = 0;
        for (int n : nodes) {
            if (n < 0 || n >= 64) {
                throw new IllegalArgumentException("bit number must be less than 64");
            }
            bits |= 1L << n;
        }
        return new BitMask(bits);
    }

    public static BitMask of(Collection<Integer> nodes) {
        return of(nodes.stream().mapToInt(Integer::intValue).toArray());
    }

    public int count() {
        return Long.bitCount(bits);
    }

    public boolean isEmpty() {
        return bits == 0;
    }

    public boolean isSet(int node) {
        return node >= 0 && node < 64 && (bits & (1L << node)) != 0;
    }

    /** Upstream's {@code AnySet}: whether any of these nodes is in the mask. */
    public boolean anySet(Collection<? extends Number> nodes) {
        return nodes.stream().anyMatch(n -> isSet(n.intValue()));
    }

    /** The NUMA node IDs, ascending (upstream's {@code GetBits}). */
    public List<Integer> nodes() {
        List<Integer> out = new ArrayList<>();
        for (int n = 0; n < 64; n++) {
            if (isSet(n)) {
                out.add(n);
            }
        }
        return out;
    }

    public BitMask and(BitMask other) {
        return new BitMask(bits & other.bits);
    }

    /**
     * Upstream's {@code IsNarrowerThan}: fewer nodes, or as many with more lower-numbered nodes ({@link #isLessThan}).
     */
    public boolean isNarrowerThan(BitMask other) {
        if (count() == other.count()) {
            return isLessThan(other);
        }
        return count() < other.count();
    }

    /** Upstream's {@code IsLessThan}: the masks compared as unsigned numbers, so that lower-numbered nodes win. */
    public boolean isLessThan(BitMask other) {
        return Long.compareUnsigned(bits, other.bits) < 0;
    }

    /**
     * Upstream's {@code IterateBitMasks}: every non-empty combination of {@code nodes}, the single nodes first, then
     * the pairs, and so on up to all of them; within one size in the order of {@code nodes}.
     */
    public static void iterateBitMasks(List<Integer> nodes, Consumer<BitMask> callback) {
        for (int size = 1; size <= nodes.size(); size++) {
            combinations(nodes, 0, 0L, 0, size, callback);
        }
    }

    private static void combinations(List<Integer> nodes, int from, long accum, int taken, int size,
                                     Consumer<BitMask> callback) {
        if (taken == size) {
            callback.accept(new BitMask(accum));
            return;
        }
        for (int i = from; i < nodes.size(); i++) {
            combinations(nodes, i + 1, accum | (1L << nodes.get(i)), taken + 1, size, callback);
        }
    }

    /** The node IDs, as {@code [0 1]}. */
    @Override
    public String toString() {
        return nodes().toString().replace(",", "");
    }
}
