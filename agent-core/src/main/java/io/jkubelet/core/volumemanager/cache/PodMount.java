package io.jkubelet.core.volumemanager.cache;

import io.jkubelet.core.volume.BlockVolumeMapper;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.VolumeSpec;

/** A volume mounted (or perhaps mounted) for one pod, as the actual state of the world holds it (upstream {@code mountedPod}). */
final class PodMount {
    final String podName;
    final String outerVolumeSpecName;
    final VolumeSpec spec;
    final Mounter mounter;
    /** What mapped a raw block volume; null for a mounted file system. */
    final BlockVolumeMapper blockVolumeMapper;
    final String volumeGidValue;
    boolean uncertain;
    boolean reconstructed;
    boolean remountRequired;

    PodMount(String podName, String outerVolumeSpecName, VolumeSpec spec, Mounter mounter,
             BlockVolumeMapper blockVolumeMapper, String volumeGidValue) {
        this.podName = podName;
        this.outerVolumeSpecName = outerVolumeSpecName;
        this.spec = spec;
        this.mounter = mounter;
        this.blockVolumeMapper = blockVolumeMapper;
        this.volumeGidValue = volumeGidValue;
    }
}
