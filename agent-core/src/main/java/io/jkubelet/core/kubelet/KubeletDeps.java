package io.jkubelet.core.kubelet;

import io.jkubelet.core.cluster.ClusterSide;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;

import java.time.Clock;

/**
 * What the kubelet is given from outside (upstream {@code kubelet.Dependencies}).
 *
 * @param cluster the node's apiserver side; {@link ClusterSide#standalone()} without {@code --kubeconfig}
 */
public record KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock,
                          ClusterSide cluster) {

    /** A standalone node's dependencies: no apiserver. */
    public KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock) {
        this(runtime, images, recorder, clock, ClusterSide.standalone());
    }
}
