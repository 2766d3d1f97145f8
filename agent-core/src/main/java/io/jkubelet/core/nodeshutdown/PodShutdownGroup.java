package io.jkubelet.core.nodeshutdown;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;

/** The pods that stop together during a node shutdown, and the grace period they share (upstream {@code podShutdownGroup}). */
public record PodShutdownGroup(ShutdownGracePeriod period, List<Pod> pods) {
    public PodShutdownGroup {
        pods = List.copyOf(pods);
    }
}
