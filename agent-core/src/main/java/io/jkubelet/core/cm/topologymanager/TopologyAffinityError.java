package io.jkubelet.core.cm.topologymanager;

/**
 * Upstream's {@code TopologyAffinityError}: the policy found no preferred placement for the pod's resources
 * ({@code restricted}, {@code single-numa-node}); the pod is refused with this reason and message.
 */
public final class TopologyAffinityError extends AdmissionError {
    /** Upstream's {@code ErrorTopologyAffinity}. */
    public static final String REASON = "TopologyAffinityError";
    public static final String MESSAGE = "Resources cannot be allocated with Topology locality";

    public TopologyAffinityError() {
        super(REASON, MESSAGE);
    }
}
