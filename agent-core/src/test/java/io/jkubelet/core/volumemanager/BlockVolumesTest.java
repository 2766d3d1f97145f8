package io.jkubelet.core.volumemanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.events.Event;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.kuberuntime.ContainerConfigFactory;
import io.jkubelet.core.kuberuntime.ImageUser;
import io.jkubelet.core.kuberuntime.NodeContext;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.runtime.Device;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volume.util.LoopDevices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

import static io.jkubelet.core.volumemanager.FakePersistentVolumes.boundTo;
import static io.jkubelet.core.volumemanager.FakePersistentVolumes.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Raw block volumes ({@code volumeMode: Block}, a container's {@code volumeDevices}) through the volume manager: a
 * {@code local} PersistentVolume on a real loop device mapped for a pod as upstream v1.30 maps it (the device
 * bind-mounted on the pod's map file under the volume's global map path, a loop device on that file holding the device
 * open, the pod's link to the device under {@code pods/<uid>/volumeDevices}), given to the container as a device,
 * unmapped when the pod goes, and found again after a restart. Root only: the mounts and loop devices are real, and
 * every one a test made is undone after it.
 */
class BlockVolumesTest {
    @TempDir Path root;
    private final LoggingEventRecorder events = new LoggingEventRecorder(Clock.systemUTC());
    private final FakePersistentVolumes apiserver = new FakePersistentVolumes();
    private final LinuxMounts mounts = new LinuxMounts();
    private PodDirs dirs;
    private String device;
    private Path image;

    @BeforeEach
    void aLoopDevice() throws Exception {
        assumeTrue(LoopDevices.available(), "loop devices and bind mounts need root and losetup");
        dirs = new PodDirs(root.resolve("kubelet"));
        image = root.resolve("disk.img");
        device = LoopDevices.attach(image, 16L << 20);
        apiserver.put(claim("default", "data", "block-pv"));
        apiserver.put(boundTo("block-pv", "default", "data").editSpec().withVolumeMode("Block").withNewLocal()
                .withPath(device).endLocal().endSpec().build());
    }

    @AfterEach
    void detachAndUnmount() {
        if (root != null) {
            LoopDevices.cleanUp(root);
        }
    }

    private ManualVolumeManager manager() {
        return new ManualVolumeManager(dirs, mounts, VolumePlugins.probe(dirs, mounts,
                new ApiVolumes(PodObjects.standalone(), "node-a", List::of, Clock.systemUTC()), events), apiserver, events);
    }

    /** A pod whose container takes claim {@code claimName} as the device {@code /dev/xvda}. */
    private static Pod pod(String uid, String claimName, boolean readOnly) {
        return new PodBuilder().withNewMetadata().withName("pod-" + uid).withNamespace("default").withUid(uid).endMetadata()
                .withNewSpec().withContainers(new ContainerBuilder().withName("app").withImage("busybox")
                        .addNewVolumeDevice().withName("data").withDevicePath("/dev/xvda").endVolumeDevice().build())
                .addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName(claimName)
                .withReadOnly(readOnly).endPersistentVolumeClaim().endVolume().endSpec().build();
    }

    private Path podLink(String uid) {
        return root.resolve("kubelet/pods/" + uid + "/volumeDevices/kubernetes.io~local-volume/block-pv");
    }

    private Path globalMapPath() {
        return root.resolve("kubelet/plugins/kubernetes.io~local-volume/volumeDevices/block-pv");
    }

    /** The devices the runtime is asked to give the pod's container (upstream's {@code makeBlockVolumes}). */
    private static List<Device> containerDevices(ManualVolumeManager vm, Pod pod) throws Exception {
        NodeContext node = new NodeContext("node-a", List.of("192.168.1.10"), Path.of("/var/log/pods"),
                Path.of("/var/log/containers"), "jkubelet/pause:3.9", List.of(), "cluster.local", x -> Math.max(x, 0));
        Container c = pod.getSpec().getContainers().getFirst();
        return new ContainerConfigFactory(node, (p, x) -> 0).containerConfig(pod, c, 0, "10.1.2.3",
                vm.manager().getMountedVolumesForPod(pod), null, null, ImageUser.ROOT).devices();
    }

    @Test
    void aLocalBlockVolumeIsMappedForThePodAndItsContainerGetsTheDeviceAtItsDevicePath() throws Exception {
        ManualVolumeManager vm = manager();
        Pod pod = pod("a", "data", false);

        Path link = vm.mountVolumes(pod).get("data");

        assertThat(link).isEqualTo(podLink("a"));
        assertThat(Files.readSymbolicLink(link)).isEqualTo(Path.of(device));
        Path mapFile = globalMapPath().resolve("a");
        assertThat(mounts.mountAt(mapFile)).as("the device bind-mounted on the pod's map file").isPresent();
        assertThat(LoopDevices.backedUnder(globalMapPath())).as("a loop device holds the device open").hasSize(1);
        assertThat(containerDevices(vm, pod)).containsExactly(new Device("/dev/xvda", link.toString(), "mrw"));
        assertThat(events.events()).filteredOn(e -> e.reason().equals("SuccessfulMountVolume")).extracting(Event::message)
                .containsExactly("MapVolume.MapPodDevice succeeded for volume \"block-pv\" globalMapPath \""
                        + globalMapPath() + "\"", "MapVolume.MapPodDevice succeeded for volume \"block-pv\" volumeMapPath \""
                        + link.getParent() + "\"");
        // What the container writes to its device is on the volume's disk.
        try (RandomAccessFile dev = new RandomAccessFile(link.toFile(), "rw")) {
            dev.write("written by the pod".getBytes(StandardCharsets.UTF_8));
            dev.getFD().sync();
        }
        assertThat(new String(Files.readAllBytes(image), 0, 18, StandardCharsets.UTF_8)).isEqualTo("written by the pod");
        // Its size is what the stats report as its capacity, as upstream's block metrics.
        VolumeInfo info = vm.manager().getMountedVolumesForPod(pod).get("data");
        assertThat(((VolumeMetrics.Provider) info.metrics()).getMetrics().capacityBytes()).isEqualTo(16L << 20);
        assertThat(info.claim().getClaimName()).isEqualTo("data");
    }

    @Test
    void aReadOnlyClaimIsGivenAsAReadOnlyDeviceAsUpstream() throws Exception {
        ManualVolumeManager vm = manager();
        Pod pod = pod("a", "data", true);
        Path link = vm.mountVolumes(pod).get("data");
        assertThat(containerDevices(vm, pod)).containsExactly(new Device("/dev/xvda", link.toString(), "r"));
    }

    @Test
    void thePodsRemovalUnmapsTheVolumeAndTheLastPodsTheNodesMapPath() throws Exception {
        ManualVolumeManager vm = manager();
        vm.mountVolumes(pod("a", "data", false));
        vm.mountVolumes(pod("b", "data", false));
        assertThat(LoopDevices.backedUnder(globalMapPath())).hasSize(2);

        vm.cleanupPod("a");

        assertThat(podLink("a")).doesNotExist();
        assertThat(globalMapPath().resolve("a")).doesNotExist();
        assertThat(LoopDevices.backedUnder(globalMapPath().resolve("a"))).isEmpty();
        assertThat(vm.manager().podVolumesExist("a")).isFalse();
        assertThat(Files.readSymbolicLink(podLink("b"))).isEqualTo(Path.of(device));
        assertThat(mounts.isMountPoint(globalMapPath().resolve("b"))).isTrue();

        vm.cleanupPod("b");
        vm.passes(); // no pod has it: the node's map path goes

        assertThat(podLink("b")).doesNotExist();
        assertThat(LoopDevices.backedUnder(globalMapPath())).isEmpty();
        assertThat(globalMapPath()).doesNotExist();
        assertThat(Files.exists(Path.of(device))).as("the device itself is the node's, untouched").isTrue();
    }

    @Test
    void aBlockClaimUsedAsAFileSystemIsRefusedWithUpstreamsMessage() {
        Pod mounting = new PodBuilder(pod("a", "data", false)).editSpec().editFirstContainer().withVolumeDevices()
                .addNewVolumeMount().withName("data").withMountPath("/data").endVolumeMount().endContainer().endSpec()
                .build();
        assertThatThrownBy(() -> manager().mountVolumes(mounting)).hasMessage("unmounted volumes=[data], unattached "
                + "volumes=[], failed to process volumes=[data]: volume data has volumeMode Block, but is specified in "
                + "volumeMounts");
        assertThat(root.resolve("kubelet/pods/a/volumeDevices")).doesNotExist();
    }

    @Test
    void aRestartedKubeletFindsTheMappedVolumeAndMapsItAgainForItsPodWithoutUnmappingIt() throws Exception {
        Pod pod = pod("a", "data", false);
        manager().mountVolumes(pod);
        List<String> holding = LoopDevices.backedUnder(globalMapPath());

        ManualVolumeManager restarted = manager();
        restarted.reconstruct();

        // Before the pods are known, nothing is unmapped under the pod, which may still run.
        restarted.sourcesReady(() -> false);
        restarted.passes();
        assertThat(restarted.manager().podVolumesExist("a")).isTrue();
        assertThat(Files.readSymbolicLink(podLink("a"))).isEqualTo(Path.of(device));

        restarted.sourcesReady(() -> true);
        Path link = restarted.mountVolumes(pod).get("data");
        assertThat(link).isEqualTo(podLink("a"));
        assertThat(LoopDevices.backedUnder(globalMapPath())).as("the same loop device holds it").isEqualTo(holding);
        assertThat(containerDevices(restarted, pod)).containsExactly(new Device("/dev/xvda", link.toString(), "mrw"));

        restarted.cleanupPod("a");
        restarted.passes();
        assertThat(podLink("a")).doesNotExist();
        assertThat(globalMapPath()).doesNotExist();
    }

    @Test
    void aRestartedKubeletUnmapsTheVolumeOfAPodThatIsGone() throws Exception {
        manager().mountVolumes(pod("a", "data", false));
        assertThat(Files.readSymbolicLink(podLink("a"))).isEqualTo(Path.of(device));
        assertThat(LoopDevices.backedUnder(globalMapPath())).hasSize(1);

        ManualVolumeManager restarted = manager();
        restarted.reconstruct();
        restarted.passes(); // every source has delivered its pods: pod a is not among them
        restarted.passes();

        assertThat(podLink("a")).doesNotExist();
        assertThat(LoopDevices.backedUnder(globalMapPath())).isEmpty();
        assertThat(globalMapPath()).doesNotExist();
        assertThat(restarted.manager().podVolumesExist("a")).isFalse();
    }
}
