package io.jkubelet.core.volume.configmap;

import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.volume.ApiVolumePlugin;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.util.HostMounts;

/** Upstream {@code pkg/volume/configmap}: a ConfigMap's keys as files, on the node's disk. */
public final class ConfigMapPlugin extends ApiVolumePlugin {
    public static final String NAME = "kubernetes.io/configmap";

    public ConfigMapPlugin(ApiVolumes api, PodDirs dirs, HostMounts mounts) {
        super(NAME, "configMap", Volume::getConfigMap, false, api, dirs, mounts);
    }

    @Override
    protected VolumeBuilder emptySource(VolumeBuilder volume) {
        return volume.withNewConfigMap().endConfigMap();
    }
}
