package io.jkubelet.core.cm.topologymanager;

import java.util.List;
import java.util.Map;

/** Upstream's {@code none} policy: no hint, every pod admitted; the providers allocate without alignment. */
final class NonePolicy implements Policy {
    @Override
    public String name() {
        return NONE;
    }

    @Override
    public Result merge(List<Map<String, List<TopologyHint>>> providersHints) {
        return new Result(TopologyHint.NONE, true);
    }
}
