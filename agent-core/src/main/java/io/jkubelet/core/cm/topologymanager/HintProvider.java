package io.jkubelet.core.cm.topologymanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Map;

/**
 * A resource manager that takes part in the topology manager's admission (upstream {@code topologymanager.HintProvider}:
 * the device manager, the CPU manager). The manager calls it on the admitting thread, one pod at a time.
 *
 * <p>Hints are by resource name. A resource mapped to {@code null} has no NUMA preference (any node will do); a
 * resource mapped to an empty list has no placement that can satisfy it (upstream's "no possible NUMA affinities");
 * an empty map means no preference for any resource.
 */
public interface HintProvider {
    /**
     * Upstream {@code GetTopologyHints}: the possible NUMA placements of the container's resources, the narrowest marked
     * preferred. Asked under the {@code container} scope, not under the {@code none} policy.
     */
    Map<String, List<TopologyHint>> getTopologyHints(Pod pod, Container container);

    /** Upstream {@code GetPodTopologyHints}: as {@link #getTopologyHints}, for all of the pod's resources at once. */
    Map<String, List<TopologyHint>> getPodTopologyHints(Pod pod);

    /**
     * Allocates the container's resources of this manager (upstream {@code Allocate}), from the NUMA nodes of the
     * affinity the topology manager holds for it; called for each init container, then each app container.
     *
     * @throws Exception when they cannot be allocated; an {@link AdmissionError} refuses the pod with its own reason,
     *     any other with {@code UnexpectedAdmissionError}
     */
    void allocate(Pod pod, Container container) throws Exception;
}
