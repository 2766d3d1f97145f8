package io.jkubelet.core.volumemanager.populator;

/** What the populator asks the pod workers (upstream populator's {@code PodStateProvider}). Thread-safe. */
public interface PodStateProvider {
    /** The pod's worker is stopping it, or has: its volumes are not mounted again. */
    boolean shouldPodContainersBeTerminating(String uid);

    /** The pod's containers are stopped: its volumes may be unmounted. False for a pod no worker has yet. */
    boolean shouldPodRuntimeBeRemoved(String uid);
}
