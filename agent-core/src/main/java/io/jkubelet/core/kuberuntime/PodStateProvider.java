package io.jkubelet.core.kuberuntime;

/**
 * What container GC asks the kubelet about a pod it finds on the runtime (upstream {@code podStateProvider}).
 * Thread-safe.
 */
public interface PodStateProvider {

    /**
     * Whether everything of the pod may go, its last containers, sandboxes and logs included: no source wants it
     * and it is terminated, or the kubelet never ran it and every source has reported.
     */
    boolean shouldPodContentBeRemoved(String podUid);

    /**
     * Whether the pod's runtime parts may go while the pod itself is still kept (it is terminated): what container
     * GC frees when the node is short of disk.
     */
    boolean shouldPodRuntimeBeRemoved(String podUid);
}
