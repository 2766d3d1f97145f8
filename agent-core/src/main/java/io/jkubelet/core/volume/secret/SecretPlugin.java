package io.jkubelet.core.volume.secret;

import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.volume.ApiVolumePlugin;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.util.HostMounts;

/** Upstream {@code pkg/volume/secret}: a Secret's keys as files, on a tmpfs. */
public final class SecretPlugin extends ApiVolumePlugin {
    public static final String NAME = "kubernetes.io/secret";

    public SecretPlugin(ApiVolumes api, PodDirs dirs, HostMounts mounts) {
        super(NAME, "secret", Volume::getSecret, true, api, dirs, mounts);
    }

    @Override
    protected VolumeBuilder emptySource(VolumeBuilder volume) {
        return volume.withNewSecret().endSecret();
    }
}
