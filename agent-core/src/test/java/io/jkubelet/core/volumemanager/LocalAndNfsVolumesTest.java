package io.jkubelet.core.volumemanager;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.events.Event;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.util.HostMounts;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volume.util.MountException;
import io.jkubelet.core.testing.PlainTempDir;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.jkubelet.core.volumemanager.FakePersistentVolumes.boundTo;
import static io.jkubelet.core.volumemanager.FakePersistentVolumes.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The in-tree plugins that need no cloud: {@code local} PersistentVolumes bind-mounted into each pod that claims them (a
 * directory, or a block device formatted and mounted once for the node), and {@code nfs} mounted with
 * {@code mount -t nfs}. The mounts are real (root); the NFS mount needs a kernel with the NFS client, which this
 * machine's lacks: its test checks the command and the message the kernel's refusal gives.
 */
class LocalAndNfsVolumesTest {
    @TempDir Path root;
    private final LoggingEventRecorder events = new LoggingEventRecorder(Clock.systemUTC());
    private final FakePersistentVolumes apiserver = new FakePersistentVolumes();
    private final LinuxMounts mounts = new LinuxMounts();
    private final List<Runnable> cleanups = new ArrayList<>();

    @BeforeEach
    void aPlainRoot() {
        PlainTempDir.of(root);
    }

    @AfterEach
    void cleanUp() {
        cleanups.reversed().forEach(Runnable::run);
    }

    private ManualVolumeManager manager() {
        return manager(mounts);
    }

    private ManualVolumeManager manager(HostMounts hostMounts) {
        PodDirs dirs = new PodDirs(root.resolve("kubelet"));
        return new ManualVolumeManager(dirs, hostMounts, VolumePlugins.probe(dirs, hostMounts,
                new ApiVolumes(PodObjects.standalone(), "node-a", List::of, Clock.systemUTC()), events), apiserver, events);
    }

    private static Pod pod(String uid, String claimName, boolean readOnly) {
        return pod(uid, claimName, readOnly, null);
    }

    /** @param fsGroup the pod's {@code securityContext.fsGroup}, or null for none */
    private static Pod pod(String uid, String claimName, boolean readOnly, Long fsGroup) {
        return new PodBuilder().withNewMetadata().withName("pod-" + uid).withNamespace("default").withUid(uid).endMetadata()
                .withNewSpec().withNewSecurityContext().withFsGroup(fsGroup).endSecurityContext().withContainers(new ContainerBuilder().withName("app").withImage("busybox")
                        .addNewVolumeMount().withName("data").withMountPath("/data").endVolumeMount().build())
                .addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName(claimName)
                .withReadOnly(readOnly).endPersistentVolumeClaim().endVolume().endSpec().build();
    }

    private void localVolume(String pvName, String claimName, String path) {
        apiserver.put(claim("default", claimName, pvName));
        apiserver.put(boundTo(pvName, "default", claimName).editSpec().withNewLocal().withPath(path).endLocal().endSpec()
                .build());
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    @Test
    void twoPodsShareALocalVolumeEachThroughItsOwnBindMountAndTheDataOutlivesBoth() throws Exception {
        assumeTrue(root(), "bind mounts need root");
        Path source = Files.createDirectories(root.resolve("disks/vol1"));
        localVolume("local-pv", "shared", source.toString());
        ManualVolumeManager vm = manager();
        Path a = vm.mountVolumes(pod("a", "shared", false)).get("data");
        Path b = vm.mountVolumes(pod("b", "shared", false)).get("data");
        cleanups.add(() -> unmountQuietly(a, b));

        assertThat(a).isEqualTo(root.resolve("kubelet/pods/a/volumes/kubernetes.io~local-volume/local-pv"));
        assertThat(mounts.isMountPoint(a)).isTrue();
        assertThat(mounts.isMountPoint(b)).isTrue();
        Files.writeString(a.resolve("from-a"), "hello");
        assertThat(Files.readString(b.resolve("from-a"))).isEqualTo("hello");

        vm.cleanupPod("a");
        assertThat(a).doesNotExist();
        assertThat(mounts.isMountPoint(b)).isTrue();
        vm.cleanupPod("b");
        assertThat(b).doesNotExist();
        assertThat(Files.readString(source.resolve("from-a"))).isEqualTo("hello");
    }

    @Test
    void aReadOnlyClaimOfALocalVolumeIsMountedReadOnly() throws Exception {
        assumeTrue(root(), "bind mounts need root");
        Path source = Files.createDirectories(root.resolve("disks/vol1"));
        localVolume("local-pv", "shared", source.toString());
        ManualVolumeManager vm = manager();
        Path ro = vm.mountVolumes(pod("a", "shared", true)).get("data");
        cleanups.add(() -> unmountQuietly(ro));
        assertThat(vm.manager().getMountedVolumesForPod(pod("a", "shared", true)).get("data").readOnly()).isTrue();
        assertThatThrownBy(() -> Files.writeString(ro.resolve("x"), "no")).hasMessageContaining("Read-only file system");
    }

    /** The group and permission bits of {@code p}, as {@code stat -c '%g %a'} prints them. */
    private static String stat(Path p) throws Exception {
        return Files.getAttribute(p, "unix:gid") + " " + Integer.toOctalString((Integer) Files.getAttribute(p, "unix:mode") & 07777);
    }

    @Test
    void theFirstPodToMountAWritableLocalVolumeGivesItToItsFsGroupAndTheNextOneIsWarned() throws Exception {
        assumeTrue(root(), "bind mounts and other groups need root");
        Path source = Files.createDirectories(root.resolve("disks/vol1"));
        Files.setAttribute(source, "unix:mode", 0755);
        Path data = Files.writeString(source.resolve("data"), "x");
        Files.setAttribute(data, "unix:mode", 0644);
        localVolume("local-pv", "shared", source.toString());
        ManualVolumeManager vm = manager();

        Path a = vm.mountVolumes(pod("a", "shared", false, 1111L)).get("data");
        cleanups.add(() -> unmountQuietly(a));
        assertThat(stat(a)).isEqualTo("1111 2775");
        assertThat(stat(a.resolve("data"))).isEqualTo("1111 664");

        // Another pod with another group shares the volume as it is, and is told.
        Path b = vm.mountVolumes(pod("b", "shared", false, 2222L)).get("data");
        cleanups.add(() -> unmountQuietly(b));
        assertThat(stat(b.resolve("data"))).isEqualTo("1111 664");
        assertThat(events.events()).filteredOn(e -> e.reason().equals("AlreadyMountedVolume")).singleElement()
                .satisfies(e -> {
                    assertThat(e.type()).isEqualTo("Warning");
                    assertThat(e.involvedObject().getName()).isEqualTo("pod-b");
                    assertThat(e.message()).isEqualTo("The requested fsGroup is 2222, but the volume local-pv has GID 1111. "
                            + "The volume may not be shareable.");
                });
    }

    @Test
    void aReadOnlyClaimOfALocalVolumeIsNotGivenToTheFsGroup() throws Exception {
        assumeTrue(root(), "bind mounts need root");
        Path source = Files.createDirectories(root.resolve("disks/vol1"));
        Files.setAttribute(source, "unix:mode", 0755);
        localVolume("local-pv", "shared", source.toString());
        Path ro = manager().mountVolumes(pod("a", "shared", true, 1111L)).get("data");
        cleanups.add(() -> unmountQuietly(ro));
        assertThat(stat(ro)).isEqualTo("0 755");
    }

    @Test
    void aLocalVolumeWhosePathIsMissingWaitsWithUpstreamsEvent() {
        localVolume("local-pv", "data", root.resolve("disks/missing").toString());
        ManualVolumeManager vm = manager();
        assertThatThrownBy(() -> vm.mountVolumes(pod("a", "data", false)))
                .hasMessage("MountVolume.NewMounter initialization failed for volume \"local-pv\" : path \""
                        + root.resolve("disks/missing") + "\" does not exist");
    }

    @Test
    void aLocalVolumeOnABlockDeviceIsFormattedAndMountedOnceForTheNode() throws Exception {
        assumeTrue(root(), "loop devices need root");
        Path image = root.resolve("disk.img");
        try (var f = new java.io.RandomAccessFile(image.toFile(), "rw")) {
            f.setLength(16L << 20);
        }
        Optional<String> loop = run("losetup", "-f", "--show", image.toString());
        assumeTrue(loop.isPresent() && loop.get().startsWith("/dev/loop"), "this machine cannot make a loop device");
        String device = loop.get().trim();
        cleanups.add(() -> run("losetup", "-d", device));
        localVolume("block-pv", "data", device);
        ManualVolumeManager vm = manager();
        Path a = vm.mountVolumes(pod("a", "data", false)).get("data");
        Path global = root.resolve("kubelet/plugins/kubernetes.io/local-volume/mounts/block-pv");
        cleanups.add(() -> unmountQuietly(a, global));

        assertThat(mounts.mountAt(global)).hasValueSatisfying(m -> {
            assertThat(m.fsType()).isEqualTo("ext4");
            assertThat(m.source()).isEqualTo(device);
        });
        Files.writeString(a.resolve("kept"), "on the disk");
        vm.cleanupPod("a");
        vm.passes(); // no pod uses it: its global mount goes
        assertThat(mounts.isMountPoint(global)).isFalse();

        // Mounted again, not formatted again.
        Path b = vm.mountVolumes(pod("b", "data", false)).get("data");
        cleanups.add(() -> unmountQuietly(b));
        assertThat(Files.readString(b.resolve("kept"))).isEqualTo("on the disk");
    }

    @Test
    void anNfsClaimIsMountedWithMountDashTNfsAndItsOptions() throws Exception {
        List<String> mounted = new ArrayList<>();
        HostMounts recording = new RecordingMounts(mounted);
        apiserver.put(claim("default", "data", "nfs-pv"));
        apiserver.put(boundTo("nfs-pv", "default", "data").editSpec().withMountOptions("nfsvers=4.1")
                .withNewNfs().withServer("10.0.0.5").withPath("/exports/data").endNfs().endSpec().build());
        Path dir = manager(recording).mountVolumes(pod("a", "data", true)).get("data");
        assertThat(dir).isEqualTo(root.resolve("kubelet/pods/a/volumes/kubernetes.io~nfs/nfs-pv"));
        assertThat(mounted).containsExactly("-t nfs -o nfsvers=4.1,ro 10.0.0.5:/exports/data " + dir);
    }

    @Test
    void anNfsMountThisKernelCannotDoWaitsWithTheMountsOwnEvent() throws Exception {
        assumeTrue(root(), "mounting needs root");
        assumeTrue(!Files.readString(Path.of("/proc/filesystems")).contains("\tnfs\n"),
                "this kernel has the NFS client: the end-to-end tests mount a real export");
        apiserver.put(claim("default", "data", "nfs-pv"));
        apiserver.put(boundTo("nfs-pv", "default", "data").editSpec().withNewNfs().withServer("127.0.0.1")
                .withPath("/exports/data").endNfs().endSpec().build());
        ManualVolumeManager vm = manager();
        assertThatThrownBy(() -> vm.mountVolumes(pod("a", "data", false)))
                .hasMessageStartingWith("MountVolume.SetUp failed for volume \"nfs-pv\" : mount failed: exit status ")
                .hasMessageContaining("Mounting command: mount\nMounting arguments: -t nfs 127.0.0.1:/exports/data "
                        + root.resolve("kubelet/pods/a/volumes/kubernetes.io~nfs/nfs-pv"));
        // Nothing is left behind for the failed mount.
        assertThat(root.resolve("kubelet/pods/a/volumes/kubernetes.io~nfs/nfs-pv")).doesNotExist();
        assertThat(events.events()).extracting(Event::reason).contains("FailedMount");
    }

    /** Records the mounts asked for and answers as if they were done. */
    private static final class RecordingMounts implements HostMounts {
        private final List<String> mounted;
        private final List<Path> at = new ArrayList<>();

        RecordingMounts(List<String> mounted) {
            this.mounted = mounted;
        }

        @Override
        public boolean isMountPoint(Path path) {
            return at.contains(path);
        }

        @Override
        public Optional<MountPoint> mountAt(Path path) {
            return Optional.empty();
        }

        @Override
        public Optional<MountPoint> mountHolding(Path path) {
            return Optional.empty();
        }

        @Override
        public List<Path> mountRefs(Path path) {
            return List.of();
        }

        @Override
        public void mount(String source, Path target, String fsType, List<String> options) {
            mounted.add("-t " + fsType + " -o " + String.join(",", options) + " " + source + " " + target);
            at.add(target);
        }

        @Override
        public void bindMount(Path source, Path target, List<String> options) {
            mounted.add("bind " + source + " " + target);
            at.add(target);
        }

        @Override
        public void makeRShared(Path mountPoint) {
            mounted.add("make-rshared " + mountPoint);
        }

        @Override
        public void unmount(Path target) throws MountException {
            at.remove(target);
        }
    }

    private void unmountQuietly(Path... paths) {
        for (Path p : paths) {
            while (mounts.isMountPoint(p)) {
                try {
                    mounts.unmount(p);
                } catch (MountException e) {
                    break;
                }
            }
        }
    }

    private static Optional<String> run(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor() == 0 ? Optional.of(out) : Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
