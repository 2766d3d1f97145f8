package io.jkubelet.core.cm.topologymanager;

import org.jspecify.annotations.Nullable;

/**
 * A hint provider's (or the merged) NUMA placement of a resource (upstream's {@code TopologyHint}).
 *
 * @param numaNodeAffinity the NUMA nodes of a possible allocation; null: any node will do (no preference)
 * @param preferred whether this placement is one of the narrowest that satisfy the request
 */
public record TopologyHint(@Nullable BitMask numaNodeAffinity, boolean preferred) {
    /** Upstream's zero hint, what {@code GetAffinity} answers for a container it holds nothing of. */
    public static final TopologyHint NONE = new TopologyHint(null, false);

    /** {@code {[0 1] true}}, as upstream's {@code String()} shows it. */
    @Override
    public String toString() {
        return "{" + (numaNodeAffinity == null ? "<nil>" : numaNodeAffinity) + " " + preferred + "}";
    }
}
