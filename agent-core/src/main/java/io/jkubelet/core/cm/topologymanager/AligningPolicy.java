package io.jkubelet.core.cm.topologymanager;

import java.util.List;
import java.util.Map;

/**
 * Upstream's {@code best-effort} and {@code restricted} policies: the providers' hints merged
 * ({@link HintMerger}); {@code best-effort} admits whatever the best hint is, {@code restricted} only a preferred one.
 */
final class AligningPolicy implements Policy {
    private final String name;
    private final NumaInfo numaInfo;
    private final boolean preferClosest;
    private final boolean onlyPreferred;

    AligningPolicy(String name, NumaInfo numaInfo, boolean preferClosest, boolean onlyPreferred) {
        this.name = name;
        this.numaInfo = numaInfo;
        this.preferClosest = preferClosest;
        this.onlyPreferred = onlyPreferred;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Result merge(List<Map<String, List<TopologyHint>>> providersHints) {
        TopologyHint best = new HintMerger(numaInfo, HintMerger.filterProvidersHints(providersHints), preferClosest)
                .merge();
        return new Result(best, !onlyPreferred || best.preferred());
    }
}
