package io.jkubelet.core.cm.topologymanager;

import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * A hint provider's (or the merged) NUMA placement of a resource (upstream's {@code TopologyHint}).
 *
 * @param numaNodeAffinity the NUMA nodes of a possible allocation; null: any node will do (no preference)
 * @param preferred whether this placement is one of the narrowest that satisfy the request
 */
public record TopologyHint(@Nullable BitMask numaNodeAffinity, boolean preferred) {
    /** Upstream's zero hint, what {@code GetAffinity} answers for a container it holds nothing of. */
    public static final TopologyHint NONE = new TopologyHint(null, false);

    /**
     * The hints of a request for {@code request} units of one resource, as upstream's CPU and device managers each
     * generate them ({@code generateCPUTopologyHints}, {@code generateDeviceTopologyHints}): every combination of
     * {@code nodes} whose free units ({@code usable}) cover the request is a hint, preferred when it has as few nodes
     * as the narrowest combination whose units of any state ({@code capacity}) could cover it.
     *
     * @param usable the units a combination can give the request, or a negative number when it cannot be chosen at all
     *     (units the container must reuse lie outside it)
     */
    public static List<TopologyHint> narrowestPreferred(List<Integer> nodes, int request,
            ToIntFunction<BitMask> capacity, ToIntFunction<BitMask> usable) {
        return narrowestPreferred(nodes, mask -> capacity.applyAsInt(mask) >= request,
                mask -> usable.applyAsInt(mask) >= request);
    }

    /**
     * The same walk for a request that is not a count of units (the memory manager's {@code calculateHints}, whose
     * request is several memory types at once): every combination that {@code canGive} the request is a hint,
     * preferred when it has as few nodes as the narrowest combination that {@code couldHold} it.
     */
    public static List<TopologyHint> narrowestPreferred(List<Integer> nodes, Predicate<BitMask> couldHold,
            Predicate<BitMask> canGive) {
        int[] minAffinitySize = {nodes.size()};
        List<BitMask> fits = new ArrayList<>();
        BitMask.iterateBitMasks(nodes, mask -> {
            if (couldHold.test(mask) && mask.count() < minAffinitySize[0]) {
                minAffinitySize[0] = mask.count();
            }
            if (canGive.test(mask)) {
                fits.add(mask);
            }
        });
        return fits.stream().map(m -> new TopologyHint(m, m.count() == minAffinitySize[0])).toList();
    }

    /** {@code {[0 1] true}}, as upstream's {@code String()} shows it. */
    @Override
    public String toString() {
        return "{" + (numaNodeAffinity == null ? "<nil>" : numaNodeAffinity) + " " + preferred + "}";
    }
}
