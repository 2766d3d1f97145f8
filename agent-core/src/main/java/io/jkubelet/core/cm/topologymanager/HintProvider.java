package io.jkubelet.core.cm.topologymanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * A resource manager whose resources the topology manager allocates at admission (upstream
 * {@code topologymanager.HintProvider}; the device manager's, next the CPU and memory managers'). Topology hints
 * are not asked for under the {@code none} policy.
 */
@FunctionalInterface
public interface HintProvider {
    /**
     * Allocates the container's resources of this manager (upstream {@code Allocate}); the topology manager calls it for
     * each init container, then each app container, of a pod being admitted, on one thread.
     *
     * @throws Exception when they cannot be allocated; the message becomes the pod's admission message
     */
    void allocate(Pod pod, Container container) throws Exception;
}
