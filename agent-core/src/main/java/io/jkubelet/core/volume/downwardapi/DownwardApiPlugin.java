package io.jkubelet.core.volume.downwardapi;

import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.volume.ApiVolumePlugin;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.util.HostMounts;

/** Upstream {@code pkg/volume/downwardapi}: the pod's own fields and its containers' resources as files, on a tmpfs. */
public final class DownwardApiPlugin extends ApiVolumePlugin {
    public static final String NAME = "kubernetes.io/downward-api";

    public DownwardApiPlugin(ApiVolumes api, PodDirs dirs, HostMounts mounts) {
        super(NAME, "downwardAPI", Volume::getDownwardAPI, true, api, dirs, mounts);
    }

    @Override
    protected VolumeBuilder emptySource(VolumeBuilder volume) {
        return volume.withNewDownwardAPI().endDownwardAPI();
    }
}
