package io.jkubelet.core.volume.util.operationexecutor;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.Unmounter;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volume.util.subpath.MountTable;
import io.jkubelet.core.volume.util.subpath.Subpath;
import io.jkubelet.core.volume.util.subpath.Subpather;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A volume's teardown comes after its containers' subPath mounts are gone (upstream's {@code CleanSubPaths} in
 * {@code UnmountVolume}): what the plugin tears down is never still mounted elsewhere by a subPath. Real mounts.
 */
class UnmountSubPathsTest {
    @TempDir Path root;
    private PodDirs dirs;
    private Path volume;
    private final Subpather subpather = new Subpather(new LinuxMounts());
    /** What the plugin's teardown saw of the subPath mount: the mounts at its target, and whether it was there. */
    private final List<String> seenAtTearDown = new ArrayList<>();
    private final List<String> unmounted = new ArrayList<>();

    @BeforeEach
    void layout() throws Exception {
        MountTable.assumeCanMount();
        dirs = new PodDirs(root);
        volume = Files.createDirectories(dirs.volumeDir("u1", "example.com/dir", "data"));
    }

    @AfterEach
    void unmountLeftovers() throws Exception {
        if (root != null) {
            MountTable.unmountAll(root);
        }
    }

    private Path subPathMount() throws Exception {
        Files.createDirectories(volume.resolve("logs"));
        return subpather.prepareSafeSubpath(new Subpath(0, volume.resolve("logs"), "data", volume, dirs.podDir("u1"), "app"));
    }

    private void unmountVolume(Path target) {
        VolumePlugin plugin = new VolumePlugin() {
            @Override
            public String name() {
                return "example.com/dir";
            }

            @Override
            public boolean canSupport(VolumeSpec spec) {
                return true;
            }

            @Override
            public Mounter newMounter(VolumeSpec spec, Pod pod) {
                return Mounter.of(volume, false, VolumeMetrics.NONE, args -> { });
            }

            @Override
            public Unmounter newUnmounter(String volumeName, String podUid) {
                return Unmounter.of(volume, () -> {
                    try {
                        seenAtTearDown.add(MountTable.at(target).size() + " mounts, exists=" + Files.exists(target));
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }

            @Override
            public VolumeSpec constructVolumeSpec(String volumeName, Path mountPath) {
                throw new UnsupportedOperationException();
            }
        };
        VolumeSpec spec = VolumeSpec.of(new VolumeBuilder().withName("data").withNewEmptyDir().endEmptyDir().build());
        OperationExecutor executor = new OperationExecutor(new NestedPendingOperations(Runnable::run, Clock.systemUTC()),
                (ref, type, reason, message) -> { }, new io.jkubelet.core.volumemanager.FakePersistentVolumes(), dirs,
                subpather, new io.jkubelet.core.volume.util.volumepathhandler.BlockVolumePathHandler(new LinuxMounts()), null);
        executor.unmountVolume(new MountedVolume("u1-data", "u1", "data", "data", plugin, spec, null, "", false),
                new RecordingAsw(unmounted));
    }

    @Test
    void theSubPathMountsAreUnmountedAndRemovedBeforeTheVolumeIsTornDown() throws Exception {
        Path target = subPathMount();
        assertThat(MountTable.at(target)).hasSize(1);

        unmountVolume(target);

        assertThat(seenAtTearDown).containsExactly("0 mounts, exists=false");
        assertThat(unmounted).containsExactly("u1/u1-data");
        assertThat(dirs.volumeSubpathsDir("u1")).doesNotExist();
    }

    @Test
    void aSubPathMountThatCannotBeCleanedKeepsTheVolumeFromItsTeardown() throws Exception {
        // Not a mount, not empty: nothing the clean-up may remove.
        Path stray = Files.createDirectories(dirs.volumeSubpathsDir("u1").resolve("data/app/0"));
        Files.writeString(stray.resolve("f"), "x");

        unmountVolume(stray);

        assertThat(seenAtTearDown).isEmpty();
        assertThat(unmounted).isEmpty();
        assertThat(stray.resolve("f")).exists();
    }

    /** The actual state, as far as an unmount writes it: the volumes it marks unmounted. */
    private record RecordingAsw(List<String> unmounted) implements ActualStateOfWorldMounterUpdater {
        @Override
        public void markVolumeAsMounted(VolumeToMount volume, Mounter mounter) { }

        @Override
        public void markVolumeMountAsUncertain(String podName, String volumeName) { }

        @Override
        public void markVolumeMountAsUncertain(VolumeToMount volume, Mounter mounter) { }

        @Override
        public void markVolumeAsUnmounted(String podName, String volumeName) {
            unmounted.add(podName + "/" + volumeName);
        }

        @Override
        public void markDeviceAsMounted(String volumeName, Path deviceMountPath) { }

        @Override
        public void markDeviceAsUncertain(String volumeName, Path deviceMountPath) { }

        @Override
        public void markDeviceAsUnmounted(String volumeName) { }

        @Override
        public void markVolumeAsMapped(VolumeToMount volume, io.jkubelet.core.volume.BlockVolumeMapper mapper) { }

        @Override
        public void markVolumeMapAsUncertain(VolumeToMount volume, io.jkubelet.core.volume.BlockVolumeMapper mapper) { }

        @Override
        public void markVolumeAsResized(String volumeName, io.fabric8.kubernetes.api.model.Quantity claimSize) { }

        @Override
        public void markForInUseExpansionError(String volumeName) { }

        @Override
        public VolumeMountState getVolumeMountState(String volumeName, String podName) {
            return VolumeMountState.MOUNTED;
        }

        @Override
        public boolean isVolumeReconstructed(String podName, String volumeName) {
            return false;
        }

        @Override
        public DeviceMountState getDeviceMountState(String volumeName) {
            return DeviceMountState.NOT_MOUNTED;
        }
    }
}
