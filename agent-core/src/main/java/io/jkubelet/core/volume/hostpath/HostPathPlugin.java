package io.jkubelet.core.volume.hostpath;

import io.fabric8.kubernetes.api.model.HostPathVolumeSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.Unmounter;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.HostUtil;

import java.nio.file.Path;

/**
 * Upstream {@code pkg/volume/hostpath}: a directory or file of the host, for a pod's own {@code hostPath} volume or a
 * {@code hostPath} PersistentVolume. Nothing is mounted or removed: the containers bind the host path itself, after
 * its {@code type} is checked ({@link HostPathTypeCheck}).
 */
public final class HostPathPlugin implements VolumePlugin {
    public static final String NAME = "kubernetes.io/host-path";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean canSupport(VolumeSpec spec) {
        return (spec.volume() != null && spec.volume().getHostPath() != null)
                || (spec.persistentVolume() != null && spec.persistentVolume().getSpec() != null
                && spec.persistentVolume().getSpec().getHostPath() != null);
    }

    @Override
    public Mounter newMounter(VolumeSpec spec, Pod pod) {
        HostPathVolumeSource src = spec.volume() != null ? spec.volume().getHostPath()
                : spec.persistentVolume().getSpec().getHostPath();
        Path path = Path.of(src.getPath());
        String type = src.getType() == null ? "" : src.getType();
        // The host's directory is not measured: upstream's MetricsNil. Nor given to the pod's fsGroup (args): upstream's
        // hostPath leaves the host's files as they are.
        return Mounter.of(path, spec.readOnly(), VolumeMetrics.NONE, args -> {
            if (HostUtil.hasBacksteps(src.getPath())) {
                throw new VolumeException("invalid HostPath `" + src.getPath() + "`: must not contain '..'");
            }
            HostPathTypeCheck.check(path, type);
        });
    }

    @Override
    public Unmounter newUnmounter(String volumeName, String podUid) {
        // The host's path stays as it is.
        return Unmounter.of(Path.of(volumeName), () -> { });
    }

    @Override
    public VolumeSpec constructVolumeSpec(String volumeName, Path mountPath) {
        return VolumeSpec.of(new VolumeBuilder().withName(volumeName).withNewHostPath().withPath(volumeName)
                .endHostPath().build());
    }
}
