package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;

/** The OOM score a container should get, by its pod's QoS class (upstream {@code qos.GetContainerOOMScoreAdjust}). */
@FunctionalInterface
public interface OomScorePolicy {
    int containerOomScoreAdjust(Pod pod, Container container);

    /** The sandbox's score, as dockershim gave it. */
    int SANDBOX_OOM_SCORE_ADJ = -998;
}
