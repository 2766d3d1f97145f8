package io.jkubelet.core.volume;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volumemanager.ManualVolumeManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The emptyDir, hostPath and standalone configMap volumes as a pod's sync sees them through the volume manager (the
 * real one, driven on the test's thread).
 */
class VolumeManagerTest {
    @TempDir Path root;
    private final LoggingEventRecorder events = new LoggingEventRecorder(Clock.systemUTC());

    /** A pod whose one container mounts each of the volumes (a volume no container mounts is never mounted). */
    private Pod pod(Volume... volumes) {
        var app = new ContainerBuilder().withName("app").withImage("busybox");
        Arrays.stream(volumes).forEach(v -> app.addNewVolumeMount().withName(v.getName()).withMountPath("/" + v.getName())
                .endVolumeMount());
        return new PodBuilder().withNewMetadata().withName("p").withNamespace("default").withUid("uid-1").endMetadata()
                .withNewSpec().withVolumes(volumes).withContainers(app.build()).endSpec().build();
    }

    private static Volume hostPath(String name, Path path, String type) {
        return new VolumeBuilder().withName(name).withNewHostPath().withPath(path.toString()).withType(type).endHostPath().build();
    }

    @Test
    void emptyDirLivesUnderThePodDirAndIsWorldWritable() throws Exception {
        ManualVolumeManager vm = ManualVolumeManager.standalone(root, events);
        Map<String, Path> paths = vm.mountVolumes(pod(new VolumeBuilder().withName("cache").withNewEmptyDir().endEmptyDir().build()));
        Path dir = paths.get("cache");
        assertThat(dir).isEqualTo(root.resolve("pods/uid-1/volumes/kubernetes.io~empty-dir/cache"));
        assertThat(dir).isDirectory();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwxrwxrwx");
        vm.cleanupPod("uid-1");
        assertThat(dir).doesNotExist();
        assertThat(vm.manager().podVolumesExist("uid-1")).isFalse();
    }

    @Test
    void aVolumeNoContainerMountsIsNotMounted() throws Exception {
        ManualVolumeManager vm = ManualVolumeManager.standalone(root, events);
        Pod pod = new PodBuilder(pod(new VolumeBuilder().withName("used").withNewEmptyDir().endEmptyDir().build()))
                .editSpec().addNewVolume().withName("unused").withNewEmptyDir().endEmptyDir().endVolume().endSpec().build();
        assertThat(vm.mountVolumes(pod)).containsOnlyKeys("used");
        assertThat(root.resolve("pods/uid-1/volumes/kubernetes.io~empty-dir/unused")).doesNotExist();
    }

    @Test
    void hostPathTypesAreChecked() throws Exception {
        ManualVolumeManager vm = ManualVolumeManager.standalone(root, events);
        Path file = Files.writeString(root.resolve("file.txt"), "x");
        Path dir = Files.createDirectories(root.resolve("dir"));
        // Accepted.
        vm.mountVolumes(pod(hostPath("a", dir, "Directory"), hostPath("b", file, "File"), hostPath("c", root.resolve("any"), "")));
        vm.mountVolumes(pod(hostPath("d", root.resolve("new/dir"), "DirectoryOrCreate"), hostPath("e", root.resolve("new/f"), "FileOrCreate")));
        assertThat(root.resolve("new/dir")).isDirectory();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("new/dir")))).isEqualTo("rwxr-xr-x");
        assertThat(root.resolve("new/f")).isRegularFile();
        // Refused, naming the volume and the path.
        record Bad(Volume v, String message) {}
        for (Bad bad : List.of(
                new Bad(hostPath("x", file, "Directory"), "is not a directory"),
                new Bad(hostPath("x", dir, "File"), "is not a file"),
                new Bad(hostPath("x", root.resolve("missing"), "Directory"), "is not a directory"),
                new Bad(hostPath("x", file, "Socket"), "is not a socket"),
                new Bad(hostPath("x", file, "Sideways"), "unknown hostPath type \"Sideways\""))) {
            assertThatThrownBy(() -> vm.mountVolumes(pod(bad.v()))).as(bad.message())
                    .isInstanceOf(VolumeException.class).hasMessageContaining("volume \"x\"").hasMessageContaining(bad.message());
        }
    }

    @Test
    void apiserverVolumesFailWithAClearMessageInStandaloneMode() {
        ManualVolumeManager vm = ManualVolumeManager.standalone(root, events);
        Volume cm = new VolumeBuilder().withName("cfg").withNewConfigMap().withName("settings").endConfigMap().build();
        assertThatThrownBy(() -> vm.mountVolumes(pod(cm))).isInstanceOf(VolumeException.class)
                .hasMessage("MountVolume.SetUp failed for volume \"cfg\" : volume type configMap needs the apiserver, and this node runs standalone");
    }

    @Test
    void memoryEmptyDirIsATmpfsThatCleanupUnmounts() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "mounting needs root");
        ManualVolumeManager vm = ManualVolumeManager.standalone(root, events);
        Path dir = vm.mountVolumes(pod(new VolumeBuilder().withName("shm").withNewEmptyDir().withMedium("Memory").endEmptyDir().build()))
                .get("shm");
        assertThat(new LinuxMounts().isMountPoint(dir)).isTrue();
        assertThat(new LinuxMounts().isLikelyMountPoint(dir)).as("a tmpfs is on a device of its own").isTrue();
        assertThat(new LinuxMounts().isLikelyMountPoint(dir.getParent())).isFalse();
        // Set up again (a remount at a pod sync): the stat test finds the tmpfs, and no second one is stacked on it.
        vm.mountVolumes(pod(new VolumeBuilder().withName("shm").withNewEmptyDir().withMedium("Memory").endEmptyDir().build()));
        assertThat(Files.readAllLines(Path.of("/proc/self/mountinfo"))).filteredOn(l -> l.contains(" " + dir + " "))
                .singleElement().asString().contains("tmpfs");
        vm.cleanupPod("uid-1");
        assertThat(new LinuxMounts().isMountPoint(dir)).isFalse();
        assertThat(dir).doesNotExist();
    }
}
