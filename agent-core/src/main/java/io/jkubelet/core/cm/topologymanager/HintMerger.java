package io.jkubelet.core.cm.topologymanager;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Upstream's hint merging ({@code policy.go}, v1.30): one hint per resource is taken from each resource's list, for
 * every combination (the cross product); each combination merges to the AND of its masks, preferred only when every
 * hint in it is preferred and all masks are equal; the best merged hint wins: a preferred one over any other, among
 * preferred ones the narrowest (or, with {@code prefer-closest-numa-nodes}, the closest); among non-preferred ones the
 * one nearest to, but not wider than, the widest of the resources' narrowest masks. Pure.
 */
final class HintMerger {
    private static final Logger log = LoggerFactory.getLogger(HintMerger.class);

    private final NumaInfo numaInfo;
    private final List<List<TopologyHint>> hints;
    private final boolean closest;
    private final int bestNonPreferredAffinityCount;

    /**
     * @param hints each resource's hints, as {@link #filterProvidersHints} gives them
     * @param closest compare preferred masks by distance ({@code prefer-closest-numa-nodes}, not single-numa-node)
     */
    HintMerger(NumaInfo numaInfo, List<List<TopologyHint>> hints, boolean closest) {
        this.numaInfo = numaInfo;
        this.hints = hints;
        this.closest = closest;
        this.bestNonPreferredAffinityCount = maxOfMinAffinityCounts(hints);
    }

    /**
     * Upstream {@code filterProvidersHints}: one list per resource of every provider. A provider with no hints at all,
     * or a resource mapped to null, counts as one preferred "any node" hint; a resource with an empty list as one
     * non-preferred "any node" hint. Resources are taken in name order, so that ties break the same way each time.
     */
    static List<List<TopologyHint>> filterProvidersHints(List<Map<String, List<TopologyHint>>> providersHints) {
        List<List<TopologyHint>> all = new ArrayList<>();
        for (Map<String, List<TopologyHint>> hints : providersHints) {
            if (hints == null || hints.isEmpty()) {
                log.debug("Hint Provider has no preference for NUMA affinity with any resource");
                all.add(List.of(new TopologyHint(null, true)));
                continue;
            }
            for (var e : new TreeMap<>(hints).entrySet()) {
                if (e.getValue() == null) {
                    log.debug("Hint Provider has no preference for NUMA affinity with resource {}", e.getKey());
                    all.add(List.of(new TopologyHint(null, true)));
                } else if (e.getValue().isEmpty()) {
                    log.debug("Hint Provider has no possible NUMA affinities for resource {}", e.getKey());
                    all.add(List.of(new TopologyHint(null, false)));
                } else {
                    all.add(e.getValue());
                }
            }
        }
        return all;
    }

    /** Upstream {@code Merge}: the best merged hint; "any node", not preferred, when no combination has a node left. */
    TopologyHint merge() {
        BitMask any = numaInfo.defaultAffinityMask();
        TopologyHint[] best = {null};
        iterateAllProviderTopologyHints(hints, 0, new ArrayList<>(),
                permutation -> best[0] = compare(best[0], mergePermutation(any, permutation)));
        return best[0] == null ? new TopologyHint(any, false) : best[0];
    }

    /** Upstream {@code mergePermutation}. */
    static TopologyHint mergePermutation(BitMask any, List<TopologyHint> permutation) {
        boolean preferred = true;
        BitMask merged = any;
        BitMask first = null;
        for (TopologyHint h : permutation) {
            if (h.numaNodeAffinity() != null) {
                if (first == null) {
                    first = h.numaNodeAffinity();
                } else if (!h.numaNodeAffinity().equals(first)) {
                    preferred = false;
                }
                merged = merged.and(h.numaNodeAffinity());
            }
            if (!h.preferred()) {
                preferred = false;
            }
        }
        return new TopologyHint(merged, preferred);
    }

    /** Upstream {@code compare}: which of the best so far and a candidate is better (see the class comment). */
    private TopologyHint compare(TopologyHint current, TopologyHint candidate) {
        int candidateCount = candidate.numaNodeAffinity().count();
        if (candidateCount == 0) {
            return current;
        }
        if (current == null) {
            return candidate;
        }
        if (current.preferred() != candidate.preferred()) {
            return candidate.preferred() ? candidate : current;
        }
        if (current.preferred()) {
            return fitter(current, candidate);
        }
        // Both not preferred: come as close as possible to, without passing, the widest narrowest mask.
        int currentCount = current.numaNodeAffinity().count();
        int target = bestNonPreferredAffinityCount;
        if (currentCount > target) {
            return fitter(current, candidate);
        }
        if (currentCount == target) {
            return candidateCount != target ? current : fitter(current, candidate);
        }
        if (candidateCount > target) {
            return current;
        }
        if (candidateCount == target) {
            return candidate;
        }
        if (candidateCount != currentCount) {
            return candidateCount > currentCount ? candidate : current;
        }
        return fitter(current, candidate);
    }

    /** Upstream's {@code CompareNUMAAffinityMasks}: the current hint on equal masks, else the narrowest or closest. */
    private TopologyHint fitter(TopologyHint current, TopologyHint candidate) {
        BitMask c = current.numaNodeAffinity();
        BitMask d = candidate.numaNodeAffinity();
        if (c.equals(d)) {
            return current;
        }
        BitMask best = closest ? numaInfo.closest(c, d) : numaInfo.narrowest(c, d);
        return best.equals(c) ? current : candidate;
    }

    /** Upstream {@code maxOfMinAffinityCounts}: the widest of the resources' narrowest masks. */
    private static int maxOfMinAffinityCounts(List<List<TopologyHint>> hints) {
        int max = 0;
        for (List<TopologyHint> resource : hints) {
            BitMask narrowest = null;
            for (TopologyHint h : resource) {
                BitMask m = h.numaNodeAffinity();
                if (m != null && (narrowest == null || m.isNarrowerThan(narrowest))) {
                    narrowest = m;
                }
            }
            if (narrowest != null) {
                max = Math.max(max, narrowest.count());
            }
        }
        return max;
    }

    /** Upstream {@code iterateAllProviderTopologyHints}: each combination of one hint from each resource's list. */
    private static void iterateAllProviderTopologyHints(List<List<TopologyHint>> all, int i, List<TopologyHint> accum,
                                                        Consumer<List<TopologyHint>> callback) {
        if (i == all.size()) {
            callback.accept(accum);
            return;
        }
        for (TopologyHint h : all.get(i)) {
            accum.add(h);
            iterateAllProviderTopologyHints(all, i + 1, accum, callback);
            accum.removeLast();
        }
    }
}
