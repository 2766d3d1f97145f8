package io.jkubelet.core.volume;

import java.nio.file.Path;

/**
 * Sets up one volume for one pod (upstream {@code volume.Mounter}). {@link #setUp(MounterArgs)} is idempotent: it is called again
 * for a volume already set up (a remount, a volume found after a restart) and must leave it working.
 */
public interface Mounter {
    /** Where the volume is for the pod's containers: a directory under the pod's, or the host path itself. */
    Path path();

    /**
     * Upstream {@code GetAttributes().ReadOnly}: every container mounts it read-only, whatever its volume mount says
     * (the kubelet owns the files of configMap, secret, downwardAPI and projected volumes; a claim may be read-only).
     */
    boolean readOnly();

    /** How its usage is measured for {@code /stats/summary}. */
    VolumeMetrics metrics();

    /**
     * Mounts or writes the volume at {@link #path()}, and gives its files to the pod's {@code fsGroup} where the plugin
     * does (upstream's {@code SetUp(mounterArgs)}).
     *
     * @param args what the mount operation read from the pod
     * @throws VolumeException with what failed; the operation's event prefixes it with the volume's name
     */
    void setUp(MounterArgs args) throws VolumeException;

    /** What sets a volume up. */
    @FunctionalInterface
    interface SetUp {
        void run(MounterArgs args) throws VolumeException;
    }

    /** A mounter of {@code path} whose {@link #setUp(MounterArgs)} runs {@code setUp}. */
    static Mounter of(Path path, boolean readOnly, VolumeMetrics metrics, SetUp setUp) {
        return new Mounter() {
            @Override
            public Path path() {
                return path;
            }

            @Override
            public boolean readOnly() {
                return readOnly;
            }

            @Override
            public VolumeMetrics metrics() {
                return metrics;
            }

            @Override
            public void setUp(MounterArgs args) throws VolumeException {
                setUp.run(args);
            }
        };
    }
}
