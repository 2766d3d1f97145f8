package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.volumemanager.VolumeInfo;

import java.util.Map;

/**
 * The pod's mounted volumes by name (upstream's {@code volumeManager.GetMountedVolumesForPod}, which the runtime manager
 * reads through the kubelet when it makes a container's mounts). The pod's sync has waited for them before the runtime
 * manager runs. Thread-safe.
 */
@FunctionalInterface
public interface PodVolumes {
    /** A node whose pods mount nothing. */
    PodVolumes NONE = pod -> Map.of();

    Map<String, VolumeInfo> mountedVolumes(Pod pod);
}
