package io.jkubelet.core.cm.cpumanager;

import io.jkubelet.core.cm.topologymanager.PolicyOptions;

import java.util.Map;
import java.util.Set;

/**
 * {@code cpuManagerPolicyOptions} of the static policy (upstream's {@code StaticPolicyOptions}): {@code full-pcpus-only}
 * (beta in v1.30, on by default through {@code CPUManagerPolicyBetaOptions}) is taken; the alpha options
 * ({@code distribute-cpus-across-numa}, {@code align-by-socket}: {@code CPUManagerPolicyAlphaOptions} is off by default)
 * and any other name are refused with upstream's messages.
 *
 * @param fullPhysicalCpusOnly a Guaranteed container's CPUs must be whole physical cores
 */
public record StaticPolicyOptions(boolean fullPhysicalCpusOnly) {
    public static final String FULL_PCPUS_ONLY = "full-pcpus-only";
    private static final Set<String> ALPHA = Set.of("distribute-cpus-across-numa", "align-by-socket");

    public static final StaticPolicyOptions NONE = new StaticPolicyOptions(false);

    /**
     * @throws IllegalArgumentException with upstream's message for an option it does not know, an alpha one, or a
     *     value that is not a boolean
     */
    public static StaticPolicyOptions parse(Map<String, String> options) {
        boolean full = false;
        for (var e : options.entrySet()) {
            if (ALPHA.contains(e.getKey())) {
                throw new IllegalArgumentException("CPU Manager Policy Alpha-level Options not enabled, but option \""
                        + e.getKey() + "\" provided");
            }
            if (!FULL_PCPUS_ONLY.equals(e.getKey())) {
                throw new IllegalArgumentException("unknown CPU Manager Policy option: \"" + e.getKey() + "\"");
            }
            full = PolicyOptions.parseBool(e.getKey(), e.getValue());
        }
        return new StaticPolicyOptions(full);
    }
}
