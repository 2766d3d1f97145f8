package io.jkubelet.core.volume.projected;

import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.volume.ApiVolumePlugin;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.util.HostMounts;

/**
 * Upstream {@code pkg/volume/projected}: ConfigMaps, Secrets, downward API fields and service account tokens in one
 * directory, on a tmpfs.
 */
public final class ProjectedPlugin extends ApiVolumePlugin {
    public static final String NAME = "kubernetes.io/projected";

    public ProjectedPlugin(ApiVolumes api, PodDirs dirs, HostMounts mounts) {
        super(NAME, "projected", Volume::getProjected, true, api, dirs, mounts);
    }

    @Override
    protected VolumeBuilder emptySource(VolumeBuilder volume) {
        return volume.withNewProjected().endProjected();
    }
}
