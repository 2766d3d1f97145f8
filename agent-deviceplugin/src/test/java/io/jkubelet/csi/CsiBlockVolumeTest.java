package io.jkubelet.csi;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachmentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volume.util.LoopDevices;
import io.jkubelet.core.volumemanager.ManualVolumeManager;
import io.jkubelet.csi.v1.CsiApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.jkubelet.csi.CsiNode.devicePod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Raw block volumes ({@code volumeMode: Block}) through a CSI driver, as upstream v1.30's {@code csiBlockMapper}: the
 * driver stages the volume with the {@code block} access type at {@code plugins/kubernetes.io/csi/volumeDevices/staging/
 * <pv>} and publishes it at the file {@code volumeDevices/publish/<pv>/<pod uid>}, on which the test driver bind-mounts
 * the volume's loop device (as csi-driver-host-path does); the kubelet maps that file for the pod. Root only: the
 * driver's loop devices and every mount are real, and undone after each test.
 */
@EnableKubernetesMockClient(crud = true)
class CsiBlockVolumeTest {
    static final String DRIVER = CsiNode.DRIVER;
    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir Path dir;
    CsiNode node;
    TestCsiDriver driver;
    LinuxMounts mounts;

    @BeforeEach
    void registerTheDriver() throws Exception {
        assumeTrue(LoopDevices.available(), "the driver makes loop devices and bind-mounts them");
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

    private Path devices(String path) {
        return dir.resolve("kubelet/plugins/kubernetes.io/csi/volumeDevices/" + path);
    }

    private Path podLink(String uid) {
        return dir.resolve("kubelet/pods/" + uid + "/volumeDevices/kubernetes.io~csi/pv-data");
    }

    @Test
    void aBlockClaimIsStagedAndPublishedAsABlockVolumeAtUpstreamsPathsAndMappedForItsPod() throws Exception {
        driver.stageUnstage = true;
        node.csiDriver(false, null);
        node.csiBlockClaim("data", "vol-1");
        ManualVolumeManager vm = node.volumeManager();

        Path link = vm.mountVolumes(devicePod("a", "data", false)).get("data");

        CsiApi.NodeStageVolumeRequest stage = driver.stages.getFirst();
        assertThat(driver.stages).hasSize(1);
        assertThat(stage.getVolumeId()).isEqualTo("vol-1");
        assertThat(stage.getStagingTargetPath()).isEqualTo(devices("staging/pv-data").toString());
        assertThat(stage.getVolumeCapability().hasBlock()).isTrue();
        assertThat(stage.getVolumeCapability().hasMount()).isFalse();
        assertThat(stage.getVolumeCapability().getAccessMode().getMode())
                .isEqualTo(CsiApi.VolumeCapability.AccessMode.Mode.SINGLE_NODE_WRITER);
        assertThat(stage.getVolumeContextMap()).containsExactly(Map.entry("share", "vol-1"));
        CsiApi.NodePublishVolumeRequest publish = driver.publishes.getFirst();
        assertThat(driver.publishes).hasSize(1);
        Path publishPath = devices("publish/pv-data/a");
        assertThat(publish.getTargetPath()).isEqualTo(publishPath.toString());
        assertThat(publish.getStagingTargetPath()).isEqualTo(devices("staging/pv-data").toString());
        assertThat(publish.getVolumeCapability().hasBlock()).isTrue();
        assertThat(publish.getReadonly()).isFalse();

        assertThat(link).isEqualTo(podLink("a"));
        assertThat(Files.readSymbolicLink(link)).isEqualTo(publishPath);
        assertThat(mounts.isMountPoint(devices("pv-data/dev/a"))).as("the pod's map file").isTrue();
        assertThat(LoopDevices.backedUnder(devices("pv-data/dev"))).as("a loop device holds it open").hasSize(1);
        assertThat(devices("pv-data/data/vol_data.json")).hasContent("{\"attachmentID\":\"csi-"
                + "5a70c5de395ccad5e79daeb27c7c4f2634b675e6e1bb2a397999a016143bc9fb\",\"driverName\":\"" + DRIVER
                + "\",\"nodeName\":\"node-a\",\"specVolID\":\"pv-data\",\"volumeHandle\":\"vol-1\"}\n");
        try (RandomAccessFile dev = new RandomAccessFile(link.toFile(), "rw")) {
            dev.write("on the driver's volume".getBytes(StandardCharsets.UTF_8));
            dev.getFD().sync();
        }
        byte[] image = Files.readAllBytes(driver.dataRoot.resolve("vol-1.img"));
        assertThat(new String(image, 0, 22, StandardCharsets.UTF_8)).isEqualTo("on the driver's volume");

        vm.cleanupPod("a");
        assertThat(driver.teardowns).first().isEqualTo("NodeUnpublishVolume vol-1 " + publishPath);
        assertThat(link).doesNotExist();
        assertThat(publishPath).doesNotExist();

        vm.passes(); // no pod has the volume: it is unstaged (if the wait's passes did not already) and its files go
        assertThat(driver.teardowns).containsExactly("NodeUnpublishVolume vol-1 " + publishPath,
                "NodeUnstageVolume vol-1 " + devices("staging/pv-data"));
        assertThat(devices("pv-data")).doesNotExist();
        assertThat(devices("staging/pv-data")).doesNotExist();
        assertThat(devices("publish/pv-data")).doesNotExist();
    }

    @Test
    void aBlockVolumeOfADriverThatRequiresAttachmentIsInUseAndMapsOnceAttachedWithItsPublishContext()
            throws Exception {
        node.csiDriver(true, null);
        node.csiBlockClaim("data", "vol-1");
        node.attachedByTheController("vol-1", "");
        ManualVolumeManager vm = node.volumeManager();
        vm.nodeStatusLoop(true);
        String attachment = "csi-5a70c5de395ccad5e79daeb27c7c4f2634b675e6e1bb2a397999a016143bc9fb";
        client.storage().v1().volumeAttachments().resource(new VolumeAttachmentBuilder().withNewMetadata()
                .withName(attachment).endMetadata().withNewSpec().withAttacher(DRIVER).withNodeName(CsiNode.NODE)
                .withNewSource().withPersistentVolumeName("pv-data").endSource().endSpec().withNewStatus()
                .withAttached(false).endStatus().build()).create();

        assertThatThrownBy(() -> vm.mountVolumes(devicePod("a", "data", true))).hasMessage("MapVolume.WaitForAttach "
                + "failed for volume \"pv-data\" : volume vol-1 is not attached for volume attachment " + attachment);
        assertThat(node.events).contains("FailedMapVolume MapVolume.WaitForAttach failed for volume \"pv-data\" : "
                + "volume vol-1 is not attached for volume attachment " + attachment);
        assertThat(vm.manager().getVolumesInUse()).containsExactly("kubernetes.io/csi/" + DRIVER + "^vol-1");
        assertThat(driver.publishes).isEmpty();

        client.storage().v1().volumeAttachments().withName(attachment).edit(va -> new VolumeAttachmentBuilder(va)
                .editStatus().withAttached(true).withAttachmentMetadata(Map.of("devicePath", "/dev/fake0")).endStatus()
                .build());
        vm.mountVolumes(devicePod("a", "data", true));

        assertThat(driver.stages).as("a driver without STAGE_UNSTAGE_VOLUME").isEmpty();
        CsiApi.NodePublishVolumeRequest publish = driver.publishes.getFirst();
        assertThat(publish.getPublishContextMap()).containsExactly(Map.entry("devicePath", "/dev/fake0"));
        assertThat(publish.getReadonly()).isTrue();
        assertThat(publish.getVolumeCapability().hasBlock()).isTrue();
        vm.cleanupPod("a");
        vm.passes();
        assertThat(driver.teardowns).containsExactly("NodeUnpublishVolume vol-1 " + devices("publish/pv-data/a"));
    }

    @Test
    void aRestartedKubeletReconstructsTheMappedVolumeFromItsVolumeDataAndLeavesItToItsPod() throws Exception {
        driver.stageUnstage = true;
        node.csiDriver(false, null);
        node.csiBlockClaim("data", "vol-1");
        Pod pod = devicePod("a", "data", false);
        node.volumeManager().mountVolumes(pod);

        ManualVolumeManager restarted = node.volumeManager();
        restarted.reconstruct();
        restarted.sourcesReady(() -> false);
        restarted.passes();
        assertThat(restarted.manager().podVolumesExist("a")).as("found perhaps mapped before the pods are known").isTrue();
        restarted.sourcesReady(() -> true);
        Path link = restarted.mountVolumes(pod).get("data");

        assertThat(driver.teardowns).as("nothing unpublished or unstaged under the running pod").isEmpty();
        assertThat(Files.readSymbolicLink(link)).isEqualTo(devices("publish/pv-data/a"));
        assertThat(mounts.isMountPoint(devices("publish/pv-data/a"))).isTrue();

        restarted.cleanupPod("a");
        restarted.passes();
        assertThat(driver.teardowns).containsExactly("NodeUnpublishVolume vol-1 " + devices("publish/pv-data/a"),
                "NodeUnstageVolume vol-1 " + devices("staging/pv-data"));
        assertThat(devices("pv-data")).doesNotExist();
    }

    @Test
    void aRestartedKubeletUnpublishesAndUnstagesTheBlockVolumeOfAPodThatIsGone() throws Exception {
        driver.stageUnstage = true;
        node.csiDriver(false, null);
        node.csiBlockClaim("data", "vol-1");
        node.volumeManager().mountVolumes(devicePod("a", "data", false));
        assertThat(driver.publishes).hasSize(1);

        ManualVolumeManager restarted = node.volumeManager();
        restarted.reconstruct();
        restarted.passes(); // every source has delivered its pods: pod a is not among them
        restarted.passes();

        assertThat(driver.teardowns).containsExactly("NodeUnpublishVolume vol-1 " + devices("publish/pv-data/a"),
                "NodeUnstageVolume vol-1 " + devices("staging/pv-data"));
        assertThat(podLink("a")).doesNotExist();
        assertThat(LoopDevices.backedUnder(devices("pv-data"))).isEmpty();
        assertThat(devices("pv-data")).doesNotExist();
    }
}
