package io.jkubelet.core.cm.topologymanager;

import java.util.List;
import java.util.Map;

/**
 * A topology manager policy (upstream's {@code Policy}): merges the providers' hints into one and says whether the pod
 * may be admitted with it. Pure.
 */
public interface Policy {
    String NONE = "none";
    String BEST_EFFORT = "best-effort";
    String RESTRICTED = "restricted";
    String SINGLE_NUMA_NODE = "single-numa-node";

    /** The merged hint and whether it admits. */
    record Result(TopologyHint hint, boolean admit) {}

    /** The policy's name, as {@code topologyManagerPolicy} gives it. */
    String name();

    /** Upstream {@code Merge}: each provider's hints by resource (see {@link HintProvider}) to one hint. */
    Result merge(List<Map<String, List<TopologyHint>>> providersHints);

    /**
     * Upstream's policies by name.
     *
     * @throws IllegalArgumentException with upstream's "unknown policy" for another name
     */
    static Policy of(String name, NumaInfo numaInfo, PolicyOptions options) {
        return switch (name) {
            case NONE -> new NonePolicy();
            case BEST_EFFORT -> new AligningPolicy(BEST_EFFORT, numaInfo, options.preferClosestNuma(), false);
            case RESTRICTED -> new AligningPolicy(RESTRICTED, numaInfo, options.preferClosestNuma(), true);
            case SINGLE_NUMA_NODE -> new SingleNumaNodePolicy(numaInfo);
            default -> throw new IllegalArgumentException("unknown policy: \"" + name + "\"");
        };
    }
}
