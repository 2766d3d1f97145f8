package io.jkubelet.core.volumemanager;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.testing.MountsUnder;
import io.jkubelet.core.volume.DeviceMounter;
import io.jkubelet.core.volume.Mounter;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.Unmounter;
import io.jkubelet.core.volume.VolumeAttacher;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumePluginMgr;
import io.jkubelet.core.volume.VolumeSpec;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volume.util.MountException;
import io.jkubelet.core.volume.util.operationexecutor.NodeReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A volume the attach/detach controller attaches to the node (upstream's attachable plugins; here a fake one, as CSI
 * volumes whose CSIDriver requires attachment are): the kubelet mounts it only once its node status reported it in use
 * and the Node's {@code status.volumesAttached} lists it, with the device path given there; after a restart it takes
 * the device path of what it finds mounted from the node status too.
 */
class AttachableVolumesTest {
    static final String VOLUME = "test/attachable/vol-1";
    static final String UNATTACHED = "unmounted volumes=[data], unattached volumes=[data], failed to process "
            + "volumes=[]: context deadline exceeded";

    @TempDir Path root;
    private final LinuxMounts mounts = new LinuxMounts();
    private final LoggingEventRecorder events = new LoggingEventRecorder(Clock.systemUTC());
    private final FakePersistentVolumes apiserver = new FakePersistentVolumes();
    /** What the apiserver has of this node; null while it cannot be read. */
    private volatile Node node = new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().build();
    private final NodeReader nodeReader = () -> {
        if (node == null) {
            throw new ApiException("nodes \"node-a\" not found", 404, null, null);
        }
        return node;
    };
    private PodDirs dirs;
    private AttachablePlugin plugin;

    @BeforeEach
    void claim() {
        assumeTrue("root".equals(System.getProperty("user.name")), "the plugin bind-mounts");
        dirs = new PodDirs(root.resolve("kubelet"));
        plugin = new AttachablePlugin();
        apiserver.put(FakePersistentVolumes.claim("default", "data", "vol-1"));
        apiserver.put(FakePersistentVolumes.boundTo("vol-1", "default", "data").editSpec().withNewCsi()
                .withDriver("test.attachable").withVolumeHandle("vol-1").endCsi().endSpec().build());
    }

    @AfterEach
    void unmountAll() throws Exception {
        MountsUnder.unmountAll(root, mounts);
    }

    private ManualVolumeManager manager(boolean controllerAttachDetachEnabled) {
        return new ManualVolumeManager(dirs, mounts, new VolumePluginMgr(List.of(plugin)), apiserver,
                new AttachDetach(controllerAttachDetachEnabled, nodeReader), events);
    }

    private void attachedByTheController(String devicePath) {
        node = new NodeBuilder(node).editOrNewStatus().withVolumesAttached().addNewVolumesAttached().withName(VOLUME)
                .withDevicePath(devicePath).endVolumesAttached().endStatus().build();
    }

    private static Pod pod(String uid) {
        return new PodBuilder().withNewMetadata().withName("pod-" + uid).withNamespace("default").withUid(uid).endMetadata()
                .withNewSpec().withContainers(new ContainerBuilder().withName("app").withImage("busybox")
                        .addNewVolumeMount().withName("data").withMountPath("/data").endVolumeMount().build())
                .addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName("data")
                .endPersistentVolumeClaim().endVolume().endSpec().build();
    }

    @Test
    void anAttachableVolumeIsMountedOnlyOnceReportedInUseAndListedAttachedWithTheDevicePathTheNodeStatusGives()
            throws Exception {
        ManualVolumeManager vm = manager(true);

        assertThatThrownBy(() -> vm.mountVolumes(pod("a"))).hasMessage(UNATTACHED);
        assertThat(vm.manager().getVolumesInUse()).containsExactly(VOLUME);
        attachedByTheController("/dev/xvdb");
        assertThatThrownBy(() -> vm.mountVolumes(pod("a"))).as("listed attached, but not yet reported in use")
                .hasMessage(UNATTACHED);
        assertThat(plugin.calls).isEmpty();

        vm.nodeStatusReported();
        Path path = vm.mountVolumes(pod("a")).get("data");

        assertThat(plugin.calls).containsExactly("WaitForAttach /dev/xvdb", "MountDevice /dev/xvdb", "SetUp " + path);
        assertThat(mounts.isMountPoint(path)).isTrue();
        assertThat(events.events()).as("waiting for the controller records no event").isEmpty();
    }

    @Test
    void aVolumeReportedInUseButNotListedAttachedWaits() throws Exception {
        ManualVolumeManager vm = manager(true);
        vm.nodeStatusLoop(true);

        assertThatThrownBy(() -> vm.mountVolumes(pod("a"))).hasMessage(UNATTACHED);
        assertThat(plugin.calls).isEmpty();

        attachedByTheController("/dev/xvdb");
        vm.mountVolumes(pod("a"));
        assertThat(plugin.calls).startsWith("WaitForAttach /dev/xvdb");
    }

    @Test
    void withoutControllerAttachDetachAnAttachableVolumeIsRefusedNamingTheSetting() throws Exception {
        ManualVolumeManager vm = manager(false);
        vm.nodeStatusLoop(true);
        attachedByTheController("/dev/xvdb");
        Pod pod = pod("a");
        vm.add(pod);
        vm.passes();

        assertThatThrownBy(() -> vm.manager().waitForAttachAndMount(pod, () -> false))
                .isInstanceOfSatisfying(VolumeWaitException.class, e -> assertThat(e.interrupted()).isFalse())
                .hasMessage("unmounted volumes=[data], unattached volumes=[data], failed to process volumes=[]: volume "
                        + "\"vol-1\" is attachable and enableControllerAttachDetach is false: the kubelet would attach it "
                        + "itself, which jkubelet does not do; set enableControllerAttachDetach to true so that the "
                        + "attach/detach controller attaches it");
        assertThat(plugin.calls).isEmpty();
    }

    @Test
    void aRestartedKubeletTakesTheDevicePathOfWhatItFindsMountedFromTheNodeStatusBeforeItUnmountsOrReportsAnything()
            throws Exception {
        ManualVolumeManager before = manager(true);
        before.nodeStatusLoop(true);
        attachedByTheController("/dev/xvdb");
        Path path = before.mountVolumes(pod("a")).get("data");
        plugin.calls.clear();

        // The Node cannot be read yet (the apiserver is away): reconstructed, uncertain, nothing reported, nothing
        // unmounted, although the pod is not among those the sources delivered.
        node = null;
        ManualVolumeManager restarted = manager(true);
        restarted.reconstruct();
        restarted.passes();
        restarted.passes();
        assertThat(restarted.manager().reconcilerStatesHasBeenSynced()).isFalse();
        assertThat(restarted.manager().getVolumesInUse()).isEmpty();
        assertThat(plugin.calls).isEmpty();

        // The controller now has it at another device path: the global mount, perhaps there, is made again from it.
        node = new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().build();
        attachedByTheController("/dev/xvdc");
        restarted.sourcesReady(() -> false);
        restarted.passes();
        assertThat(restarted.manager().reconcilerStatesHasBeenSynced()).isTrue();
        assertThat(restarted.manager().getVolumesInUse()).containsExactly(VOLUME);
        restarted.sourcesReady(() -> true);
        restarted.mountVolumes(pod("a"));

        assertThat(plugin.calls).containsExactly("WaitForAttach /dev/xvdc", "MountDevice /dev/xvdc", "SetUp " + path);
    }

    /**
     * An attachable plugin of the CSI volumes of driver {@code test.attachable}: its volume is bind-mounted from a
     * directory of its own; what it is asked is recorded with the device path it is given.
     */
    private final class AttachablePlugin implements VolumePlugin {
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public String name() {
            return "test/attachable";
        }

        @Override
        public boolean canSupport(VolumeSpec spec) {
            return spec.persistentVolume() != null && spec.persistentVolume().getSpec().getCsi() != null;
        }

        @Override
        public Optional<String> sharedVolumeName(VolumeSpec spec) {
            return Optional.of(spec.persistentVolume().getSpec().getCsi().getVolumeHandle());
        }

        @Override
        public Optional<VolumeAttacher> attacher(VolumeSpec spec) {
            return Optional.of((s, devicePath, pod) -> {
                calls.add("WaitForAttach " + devicePath);
                return devicePath;
            });
        }

        @Override
        public Optional<DeviceMounter> deviceMounter() {
            return Optional.of(new DeviceMounter() {
                @Override
                public Path deviceMountPath(VolumeSpec spec) {
                    return root.resolve("globalmount/" + spec.name());
                }

                @Override
                public void mountDevice(VolumeSpec spec, String devicePath) throws VolumeException {
                    calls.add("MountDevice " + devicePath);
                    mkdirs(deviceMountPath(spec));
                }

                @Override
                public void unmountDevice(String volumeName, Path deviceMountPath) {
                    calls.add("UnmountDevice " + deviceMountPath);
                }
            });
        }

        @Override
        public Mounter newMounter(VolumeSpec spec, Pod pod) {
            Path path = dirs.volumeDir(pod.getMetadata().getUid(), name(), spec.name());
            return Mounter.of(path, false, VolumeMetrics.NONE, args -> {
                calls.add("SetUp " + path);
                if (!mounts.isMountPoint(path)) {
                    try {
                        mounts.bindMount(mkdirs(root.resolve("disk/" + spec.name())), mkdirs(path), List.of());
                    } catch (MountException e) {
                        throw new VolumeException(e.getMessage());
                    }
                }
            });
        }

        @Override
        public Unmounter newUnmounter(String volumeName, String podUid) {
            Path path = dirs.volumeDir(podUid, name(), volumeName);
            return Unmounter.of(path, () -> {
                calls.add("TearDown " + path);
                try {
                    mounts.unmount(path);
                    Files.deleteIfExists(path);
                } catch (MountException | IOException e) {
                    throw new VolumeException(e.getMessage());
                }
            });
        }

        @Override
        public VolumeSpec constructVolumeSpec(String volumeName, Path mountPath) {
            return VolumeSpec.of(new PersistentVolumeBuilder().withNewMetadata().withName(volumeName).endMetadata()
                    .withNewSpec().withNewCsi().withDriver("test.attachable").withVolumeHandle(volumeName).endCsi()
                    .endSpec().build(), false);
        }

        private static Path mkdirs(Path p) throws VolumeException {
            try {
                return Files.createDirectories(p);
            } catch (IOException e) {
                throw new VolumeException(e.toString());
            }
        }
    }
}
