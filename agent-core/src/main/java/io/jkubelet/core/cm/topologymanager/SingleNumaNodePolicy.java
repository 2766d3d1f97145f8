package io.jkubelet.core.cm.topologymanager;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Upstream's {@code single-numa-node} policy: only preferred hints of one NUMA node (or of no preference) are merged,
 * always by narrowness ({@code prefer-closest-numa-nodes} does not apply); a result of every node is given as "any
 * node"; only a preferred result admits.
 */
final class SingleNumaNodePolicy implements Policy {
    private final NumaInfo numaInfo;

    SingleNumaNodePolicy(NumaInfo numaInfo) {
        this.numaInfo = numaInfo;
    }

    @Override
    public String name() {
        return SINGLE_NUMA_NODE;
    }

    @Override
    public Result merge(List<Map<String, List<TopologyHint>>> providersHints) {
        List<List<TopologyHint>> single = filterSingleNumaHints(HintMerger.filterProvidersHints(providersHints));
        TopologyHint best = new HintMerger(numaInfo, single, false).merge();
        if (numaInfo.defaultAffinityMask().equals(best.numaNodeAffinity())) {
            best = new TopologyHint(null, best.preferred());
        }
        return new Result(best, best.preferred());
    }

    /** Upstream {@code filterSingleNumaHints}: each resource keeps its preferred hints of no node or of one node. */
    private static List<List<TopologyHint>> filterSingleNumaHints(List<List<TopologyHint>> all) {
        List<List<TopologyHint>> out = new ArrayList<>();
        for (List<TopologyHint> resource : all) {
            out.add(resource.stream().filter(h -> h.preferred()
                    && (h.numaNodeAffinity() == null || h.numaNodeAffinity().count() == 1)).toList());
        }
        return out;
    }
}
