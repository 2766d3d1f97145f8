package io.jkubelet.csi;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.storage.CSIDriverBuilder;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachmentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.grpc.Status;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volumemanager.ManualVolumeManager;
import io.jkubelet.csi.v1.CsiApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.jkubelet.csi.CsiNode.claimingPod;
import static io.jkubelet.csi.CsiNode.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Volumes mounted through a CSI driver, end to end in the core ({@link CsiNode}: a hostpath-style driver registered by
 * the plugin watcher, the volume manager's reconciler mounting and unmounting the pods' volumes through the CSI plugin,
 * the objects on fabric8's mock apiserver). There is no external attacher here: the test marks the VolumeAttachment
 * attached, as the attacher would.
 */
@EnableKubernetesMockClient(crud = true)
class CsiVolumeMountTest {
    static final String NODE = CsiNode.NODE;
    static final String DRIVER = CsiNode.DRIVER;
    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir Path dir;
    CsiNode node;
    TestCsiDriver driver;
    LinuxMounts mounts;

    @BeforeEach
    void registerTheDriver() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "the driver bind-mounts");
        node = CsiNode.withDriver(client, dir);
        driver = node.driver;
        mounts = node.mounts;
    }

    @AfterEach
    void unmountAll() throws Exception {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void aClaimsCsiVolumeIsPublishedIntoThePodsVolumeDirectoryAndUnpublishedAfter() throws Exception {
        node.csiDriver(false, null);
        node.csiClaim("data", DRIVER, "vol-1");
        ManualVolumeManager vm = node.volumeManager();

        Path path = vm.mountVolumes(claimingPod("a", "data")).get("data");

        assertThat(path).isEqualTo(node.volumeDir("a", "pv-data").resolve("mount"));
        assertThat(mounts.isMountPoint(path)).isTrue();
        assertThat(Files.readString(node.volumeDir("a", "pv-data").resolve("vol_data.json"))).isEqualTo("{\"attachmentID\":\"csi-"
                + "5a70c5de395ccad5e79daeb27c7c4f2634b675e6e1bb2a397999a016143bc9fb\",\"driverName\":\"" + DRIVER
                + "\",\"nodeName\":\"node-a\",\"specVolID\":\"pv-data\",\"volumeHandle\":\"vol-1\","
                + "\"volumeLifecycleMode\":\"Persistent\"}\n");
        CsiApi.NodePublishVolumeRequest publish = driver.publishes.getFirst();
        assertThat(publish.getVolumeId()).isEqualTo("vol-1");
        assertThat(publish.getTargetPath()).isEqualTo(path.toString());
        assertThat(publish.getStagingTargetPath()).isEmpty();
        assertThat(publish.getVolumeCapability().getAccessMode().getMode())
                .isEqualTo(CsiApi.VolumeCapability.AccessMode.Mode.SINGLE_NODE_WRITER);
        assertThat(publish.getVolumeContextMap()).containsExactly(Map.entry("share", "vol-1"));
        assertThat(driver.stages).isEmpty();
        Files.writeString(path.resolve("written"), "by the pod");
        assertThat(driver.volumeDir("vol-1").resolve("written")).hasContent("by the pod");

        vm.cleanupPod("a");

        assertThat(driver.teardowns).containsExactly("NodeUnpublishVolume vol-1 " + path);
        assertThat(node.volumeDir("a", "pv-data")).doesNotExist();
        assertThat(driver.volumeDir("vol-1").resolve("written")).hasContent("by the pod");
    }

    @Test
    void aDriverThatStagesStagesOnceAtTheGlobalPathAndUnstagesAfterTheLastPodWithThePodsInfoInTheContext()
            throws Exception {
        driver.stageUnstage = true;
        node.csiDriver(false, true);
        node.csiClaim("shared", DRIVER, "vol-1");
        ManualVolumeManager vm = node.volumeManager();
        Path global = dir.resolve("kubelet/plugins/kubernetes.io/csi/" + DRIVER
                + "/d2e8363faaac7ae76def3b14091d8eb5755f6b92e9531627aeec833a8731cc49/globalmount");

        Path a = vm.mountVolumes(claimingPod("a", "shared")).get("data");
        Path b = vm.mountVolumes(claimingPod("b", "shared")).get("data");

        assertThat(driver.stages).singleElement().satisfies(s -> {
            assertThat(s.getStagingTargetPath()).isEqualTo(global.toString());
            assertThat(s.getVolumeContextMap()).containsExactly(Map.entry("share", "vol-1"));
        });
        assertThat(mounts.isMountPoint(global)).isTrue();
        assertThat(global.resolveSibling("vol_data.json")).hasContent("{\"driverName\":\"" + DRIVER
                + "\",\"volumeHandle\":\"vol-1\"}\n");
        assertThat(driver.publishes).extracting(CsiApi.NodePublishVolumeRequest::getStagingTargetPath)
                .containsExactly(global.toString(), global.toString());
        assertThat(driver.publishes.getLast().getVolumeContextMap()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "share", "vol-1", "csi.storage.k8s.io/pod.name", "pod-b", "csi.storage.k8s.io/pod.namespace", "default",
                "csi.storage.k8s.io/pod.uid", "b", "csi.storage.k8s.io/serviceAccount.name", "sa-b",
                "csi.storage.k8s.io/ephemeral", "false"));
        Files.writeString(a.resolve("from-a"), "hello");
        assertThat(b.resolve("from-a")).hasContent("hello");

        vm.cleanupPod("a");
        vm.passes();
        assertThat(driver.teardowns).containsExactly("NodeUnpublishVolume vol-1 " + a);
        assertThat(mounts.isMountPoint(global)).isTrue();

        vm.cleanupPod("b");
        vm.passes();
        assertThat(driver.teardowns).containsExactly("NodeUnpublishVolume vol-1 " + a, "NodeUnpublishVolume vol-1 " + b,
                "NodeUnstageVolume vol-1 " + global);
        assertThat(global.getParent()).doesNotExist();
    }

    @Test
    void aDriverThatRequiresAttachmentWaitsUntilTheNodeStatusReportsItInUseAndListsItAttached() throws Exception {
        node.csiDriver(true, null);
        node.csiClaim("data", DRIVER, "vol-1");
        ManualVolumeManager vm = node.volumeManager();
        String volumeName = "kubernetes.io/csi/" + DRIVER + "^vol-1";
        String unattached = "unmounted volumes=[data], unattached volumes=[data], failed to process volumes=[]: "
                + "context deadline exceeded";

        // Not reported in use yet: the attach/detach controller would not attach it (nor must it detach it later).
        assertThatThrownBy(() -> vm.mountVolumes(claimingPod("a", "data"))).hasMessage(unattached);
        assertThat(vm.manager().getVolumesInUse()).containsExactly(volumeName);
        // Reported, but the controller has not attached it: still waiting, and no FailedMount for it (upstream's).
        vm.nodeStatusReported();
        assertThatThrownBy(() -> vm.mountVolumes(claimingPod("a", "data"))).hasMessage(unattached);
        assertThat(node.events).noneMatch(e -> e.startsWith("FailedMount"));
        assertThat(driver.stages).isEmpty();
        assertThat(driver.publishes).isEmpty();

        node.attachedByTheController("vol-1", "");
        vm.nodeStatusLoop(true);
        String attachment = "csi-5a70c5de395ccad5e79daeb27c7c4f2634b675e6e1bb2a397999a016143bc9fb";
        assertThatThrownBy(() -> vm.mountVolumes(claimingPod("a", "data"))).hasMessage("MountVolume.WaitForAttach failed "
                + "for volume \"pv-data\" : volume vol-1 has GET error for volume attachment " + attachment
                + ": volumeattachments.storage.k8s.io \"" + attachment + "\" not found");
        assertThat(vm.manager().getVolumesInUse()).containsExactly("kubernetes.io/csi/" + DRIVER + "^vol-1");

        // The external attacher's part: the attach/detach controller made the object, the attacher attaches it.
        client.storage().v1().volumeAttachments().resource(new VolumeAttachmentBuilder().withNewMetadata()
                .withName(attachment).endMetadata().withNewSpec().withAttacher(DRIVER).withNodeName(NODE).withNewSource()
                .withPersistentVolumeName("pv-data").endSource().endSpec().withNewStatus().withAttached(false).endStatus()
                .build()).create();
        assertThatThrownBy(() -> vm.mountVolumes(claimingPod("a", "data"))).hasMessage("MountVolume.WaitForAttach failed "
                + "for volume \"pv-data\" : volume vol-1 is not attached for volume attachment " + attachment);
        assertThat(driver.publishes).isEmpty();

        client.storage().v1().volumeAttachments().withName(attachment).edit(va -> new VolumeAttachmentBuilder(va)
                .editStatus().withAttached(true).withAttachmentMetadata(Map.of("devicePath", "/dev/fake0")).endStatus()
                .build());
        Path path = vm.mountVolumes(claimingPod("a", "data")).get("data");

        assertThat(mounts.isMountPoint(path)).isTrue();
        assertThat(driver.publishes.getFirst().getPublishContextMap()).containsExactly(Map.entry("devicePath", "/dev/fake0"));
    }

    @Test
    void aVolumeOfADriverThatNeedsNoAttachmentIsMountedWithoutTheNodeStatusAndIsNotInUse() throws Exception {
        node.csiDriver(false, null);
        node.csiClaim("data", DRIVER, "vol-1");
        ManualVolumeManager vm = node.volumeManager();

        Path path = vm.mountVolumes(claimingPod("a", "data")).get("data");

        assertThat(mounts.isMountPoint(path)).isTrue();
        assertThat(vm.manager().getVolumesInUse()).isEmpty();
    }

    @Test
    void aRestartedKubeletTakesItsAttachableVolumeAsInUseOnlyOnceTheNodeStatusListsItAttached() throws Exception {
        node.csiDriver(true, null);
        node.csiClaim("data", DRIVER, "vol-1");
        node.attachedByTheController("vol-1", "");
        attachedVolumeAttachment();
        ManualVolumeManager before = node.volumeManager();
        before.nodeStatusLoop(true);
        Path path = before.mountVolumes(claimingPod("a", "data")).get("data");
        String volumeName = "kubernetes.io/csi/" + DRIVER + "^vol-1";

        ManualVolumeManager restarted = node.volumeManager();
        restarted.reconstruct();
        // Reconstructed with its attachability uncertain: not in use until the node status says it is attached.
        assertThat(restarted.manager().reconcilerStatesHasBeenSynced()).isFalse();
        assertThat(restarted.manager().getVolumesInUse()).isEmpty();
        restarted.sourcesReady(() -> false);
        restarted.passes();
        assertThat(restarted.manager().reconcilerStatesHasBeenSynced()).isTrue();
        assertThat(restarted.manager().getVolumesInUse()).containsExactly(volumeName);

        restarted.sourcesReady(() -> true);
        restarted.mountVolumes(claimingPod("a", "data"));
        assertThat(driver.teardowns).isEmpty();
        assertThat(mounts.isMountPoint(path)).isTrue();
    }

    /** The external attacher's part: the VolumeAttachment of vol-1 on this node, attached. */
    private void attachedVolumeAttachment() {
        client.storage().v1().volumeAttachments().resource(new VolumeAttachmentBuilder().withNewMetadata()
                .withName("csi-5a70c5de395ccad5e79daeb27c7c4f2634b675e6e1bb2a397999a016143bc9fb").endMetadata()
                .withNewSpec().withAttacher(DRIVER).withNodeName(NODE).withNewSource().withPersistentVolumeName("pv-data")
                .endSource().endSpec().withNewStatus().withAttached(true).endStatus().build()).create();
    }

    @Test
    void anInlineVolumeIsRefusedUnlessTheDriverListsTheEphemeralModeAndIsThenThePodsOwn() throws Exception {
        node.csiDriver(false, true, "Persistent");
        ManualVolumeManager vm = node.volumeManager();
        Pod pod = pod("a", new VolumeBuilder().withName("scratch").withNewCsi().withDriver(DRIVER)
                .withVolumeAttributes(Map.of("size", "1Mi")).endCsi().build());

        assertThatThrownBy(() -> vm.mountVolumes(pod)).hasMessage("MountVolume.NewMounter initialization failed for volume "
                + "\"scratch\" : volume mode \"Ephemeral\" not supported by driver " + DRIVER
                + " (only supports [\"Persistent\"])");
        assertThat(driver.publishes).isEmpty();

        node.csiDriver(false, true, "Persistent", "Ephemeral");
        Path path = vm.mountVolumes(pod).get("scratch");

        assertThat(path).isEqualTo(node.volumeDir("a", "scratch").resolve("mount"));
        assertThat(mounts.isMountPoint(path)).isTrue();
        String handle = "csi-80e97162c8db2c02709a38982b45cf936367298e0c12f8cb4905fbec6271183d";
        CsiApi.NodePublishVolumeRequest publish = driver.publishes.getFirst();
        assertThat(publish.getVolumeId()).isEqualTo(handle);
        assertThat(publish.getVolumeContextMap()).containsEntry("size", "1Mi")
                .containsEntry("csi.storage.k8s.io/ephemeral", "true").containsEntry("csi.storage.k8s.io/pod.uid", "a");
        assertThat(driver.stages).isEmpty();

        vm.cleanupPod("a");
        assertThat(driver.teardowns).containsExactly("NodeUnpublishVolume " + handle + " " + path);
        assertThat(node.volumeDir("a", "scratch")).doesNotExist();
    }

    @Test
    void aDriverThatIsNotRegisteredFailsItsPodsMountWithUpstreamsMessageWhileOtherPodsVolumesMount() throws Exception {
        client.storage().v1().csiDrivers().resource(new CSIDriverBuilder().withNewMetadata().withName("gone.csi")
                .endMetadata().withNewSpec().withAttachRequired(false).endSpec().build()).create();
        node.csiDriver(false, null);
        node.csiClaim("lost", "gone.csi", "vol-9");
        node.csiClaim("data", DRIVER, "vol-1");
        ManualVolumeManager vm = node.volumeManager();

        assertThatThrownBy(() -> vm.mountVolumes(claimingPod("x", "lost"))).hasMessage("MountVolume.MountDevice failed for "
                + "volume \"pv-lost\" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver "
                + "name gone.csi not found in the list of registered CSI drivers");
        Path path = vm.mountVolumes(claimingPod("a", "data")).get("data");

        assertThat(mounts.isMountPoint(path)).isTrue();
        assertThatThrownBy(() -> vm.mountVolumes(claimingPod("x", "lost"))).hasMessageContaining(
                "driver name gone.csi not found in the list of registered CSI drivers");
    }

    @Test
    void aFailingNodePublishIsTheMountsEventAndLeavesNoDirectory() throws Exception {
        node.csiDriver(false, null);
        node.csiClaim("data", DRIVER, "vol-1");
        driver.failIn.put("NodePublishVolume", Status.INTERNAL.withDescription("disk on fire"));
        ManualVolumeManager vm = node.volumeManager();

        assertThatThrownBy(() -> vm.mountVolumes(claimingPod("a", "data"))).hasMessage(
                "MountVolume.SetUp failed for volume \"pv-data\" : rpc error: code = Internal desc = disk on fire");
        assertThat(node.volumeDir("a", "pv-data")).doesNotExist();
    }

    @Test
    void aRestartedKubeletReconstructsThePublishedAndStagedVolumeUnmountsNothingUnderItsPodAndCleansUpAfterIt()
            throws Exception {
        driver.stageUnstage = true;
        node.csiDriver(false, null);
        node.csiClaim("data", DRIVER, "vol-1");
        Path path = node.volumeManager().mountVolumes(claimingPod("a", "data")).get("data");
        Files.writeString(path.resolve("kept"), "across the restart");

        ManualVolumeManager restarted = node.volumeManager();
        restarted.reconstruct();
        restarted.mountVolumes(claimingPod("a", "data"));

        assertThat(driver.teardowns).isEmpty();
        // The global mount was reconstructed as perhaps there (v1.30): staged again, which a driver does idempotently,
        // and never unstaged under the pod.
        assertThat(driver.stages).hasSize(2).extracting(CsiApi.NodeStageVolumeRequest::getStagingTargetPath)
                .containsOnly(driver.stages.getFirst().getStagingTargetPath());
        assertThat(mounts.isMountPoint(path)).isTrue();
        assertThat(path.resolve("kept")).hasContent("across the restart");

        restarted.cleanupPod("a");
        restarted.passes();
        assertThat(driver.teardowns).hasSize(2).last().asString().startsWith("NodeUnstageVolume vol-1 ");
        assertThat(node.volumeDir("a", "pv-data")).doesNotExist();
    }

    @Test
    void aVolumeWhosePodWentWhileTheKubeletWasDownIsUnpublishedAndUnstagedAfterTheRestart() throws Exception {
        driver.stageUnstage = true;
        node.csiDriver(false, null);
        node.csiClaim("data", DRIVER, "vol-1");
        Path path = node.volumeManager().mountVolumes(claimingPod("a", "data")).get("data");

        ManualVolumeManager restarted = node.volumeManager();
        restarted.reconstruct();
        restarted.passes();
        restarted.passes();

        assertThat(driver.teardowns).containsExactly("NodeUnpublishVolume vol-1 " + path, "NodeUnstageVolume vol-1 "
                + dir.resolve("kubelet/plugins/kubernetes.io/csi/" + DRIVER
                + "/d2e8363faaac7ae76def3b14091d8eb5755f6b92e9531627aeec833a8731cc49/globalmount"));
        assertThat(node.volumeDir("a", "pv-data")).doesNotExist();
    }
}
