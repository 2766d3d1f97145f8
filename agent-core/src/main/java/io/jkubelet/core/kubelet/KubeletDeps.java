package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;

import java.time.Clock;
import java.util.Optional;

/**
 * What the kubelet is given from outside (upstream {@code kubelet.Dependencies}).
 *
 * @param kubeClient the apiserver client; empty on a standalone node (no {@code --kubeconfig})
 */
public record KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock,
                          Optional<KubernetesClient> kubeClient) {

    /** A standalone node's dependencies: no apiserver. */
    public KubeletDeps(RuntimeService runtime, ImageService images, EventRecorder recorder, Clock clock) {
        this(runtime, images, recorder, clock, Optional.empty());
    }
}
