package io.jkubelet.core.volumemanager.populator;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Optional;

/** What the populator reads of the kubelet's pod manager (upstream populator's {@code PodManager}). Thread-safe. */
public interface PodManager {
    /** The pods the sources want on this node. */
    List<Pod> pods();

    Optional<Pod> get(String uid);
}
