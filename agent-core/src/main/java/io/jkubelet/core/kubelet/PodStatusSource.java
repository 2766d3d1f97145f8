package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.container.RuntimePodStatus;

/** Where the pod workers read their pods' runtime state: read after a mark each worker takes as its sync ends. */
public interface PodStatusSource {

    /** A mark for "after now": a status read later is newer than it. */
    long mark();

    /** The pod's runtime state as read after {@code mark}; may wait for such a reading. */
    RuntimePodStatus newerThan(Pod pod, long mark) throws InterruptedException;
}
