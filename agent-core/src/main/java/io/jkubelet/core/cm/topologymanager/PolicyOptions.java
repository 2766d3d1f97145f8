package io.jkubelet.core.cm.topologymanager;

import java.util.Map;
import java.util.Set;

/**
 * {@code topologyManagerPolicyOptions} (upstream's {@code PolicyOptions}, v1.30): {@code prefer-closest-numa-nodes}
 * (beta, taken since {@code TopologyManagerPolicyBetaOptions} is on); v1.30 has no alpha or GA option, and any other
 * name is refused with upstream's message.
 *
 * @param preferClosestNuma among masks of as many nodes, prefer the one whose nodes are closest to each other
 */
public record PolicyOptions(boolean preferClosestNuma) {
    public static final String PREFER_CLOSEST_NUMA_NODES = "prefer-closest-numa-nodes";
    private static final Set<String> BETA = Set.of(PREFER_CLOSEST_NUMA_NODES);

    public static final PolicyOptions NONE = new PolicyOptions(false);

    /**
     * Upstream {@code NewPolicyOptions}.
     *
     * @throws IllegalArgumentException with upstream's message for an unknown option or a value that is not a boolean
     */
    public static PolicyOptions parse(Map<String, String> options) {
        boolean closest = false;
        for (var e : options.entrySet()) {
            if (!BETA.contains(e.getKey())) {
                throw new IllegalArgumentException("unknown Topology Manager Policy option: \"" + e.getKey() + "\"");
            }
            closest = parseBool(e.getKey(), e.getValue());
        }
        return new PolicyOptions(closest);
    }

    /**
     * Go's {@code strconv.ParseBool} with the wrapping both resource managers' options give it.
     *
     * @throws IllegalArgumentException "bad value for option ..." when the value is not one of Go's booleans
     */
    public static boolean parseBool(String name, String value) {
        return switch (value) {
            case "1", "t", "T", "TRUE", "true", "True" -> true;
            case "0", "f", "F", "FALSE", "false", "False" -> false;
            default -> throw new IllegalArgumentException("bad value for option \"" + name + "\": strconv.ParseBool: "
                    + "parsing \"" + value + "\": invalid syntax");
        };
    }
}
