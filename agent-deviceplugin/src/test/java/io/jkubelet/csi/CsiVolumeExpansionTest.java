package io.jkubelet.csi;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.grpc.Status;
import io.jkubelet.core.volumemanager.ManualVolumeManager;
import io.jkubelet.csi.v1.CsiApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Online volume expansion on the node (upstream's {@code NodeExpandVolume} path, v1.30 with its default gates): a
 * claim's CSI volume whose PersistentVolume grew past the claim's {@code status.capacity} is grown by the driver's
 * {@code NodeExpandVolume}, as it is mounted and while it is in use, and the claim's status is finished. There is no
 * external-resizer here: the test plays it ({@link CsiNode#resizeAsTheController}), growing the PersistentVolume and
 * leaving the claim {@code FileSystemResizePending}, as the resize controller does for a driver that needs the node.
 */
@EnableKubernetesMockClient(crud = true)
class CsiVolumeExpansionTest {
    static final String NODE = CsiNode.NODE;
    static final String DRIVER = CsiNode.DRIVER;
    static final long GI = 1L << 30;
    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir Path dir;
    CsiNode node;
    TestCsiDriver driver;

    @BeforeEach
    void registerTheDriver() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "the driver bind-mounts");
        node = CsiNode.withDriver(client, dir);
        driver = node.driver;
        node.csiDriver(false, null);
    }

    @AfterEach
    void unmountAll() throws Exception {
        if (node != null) {
            node.close();
        }
    }

    /** A pod on this node claiming {@code claim}. */
    private static Pod pod(String uid, String claim) {
        return new PodBuilder(CsiNode.claimingPod(uid, claim)).editSpec().withNodeName(NODE).endSpec().build();
    }

    private PersistentVolumeClaim claim(String name) {
        return client.persistentVolumeClaims().inNamespace("default").withName(name).get();
    }

    private Path globalMount(String handleHash) {
        return dir.resolve("kubelet/plugins/kubernetes.io/csi/" + DRIVER + "/" + handleHash + "/globalmount");
    }

    /** sha256("vol-1"), the global mount's directory of volume vol-1. */
    private static final String VOL_1 = "d2e8363faaac7ae76def3b14091d8eb5755f6b92e9531627aeec833a8731cc49";

    @Test
    void aMountedVolumeWhosePersistentVolumeGrewIsExpandedInUseAndItsClaimFinished() throws Exception {
        driver.stageUnstage = true;
        driver.expandVolume = true;
        node.csiClaimOfSize("data", "vol-1", "1Gi", "1Gi");
        ManualVolumeManager vm = node.volumeManager();
        Path path = vm.mountVolumes(pod("a", "data")).get("data");
        assertThat(driver.expansions).isEmpty();

        node.resizeAsTheController("data", "2Gi");
        vm.mountVolumes(pod("a", "data"));

        assertThat(driver.expansions).singleElement().satisfies(r -> {
            assertThat(r.getVolumeId()).isEqualTo("vol-1");
            assertThat(r.getVolumePath()).isEqualTo(path.toString());
            assertThat(r.getStagingTargetPath()).isEqualTo(globalMount(VOL_1).toString());
            assertThat(r.getCapacityRange().getRequiredBytes()).isEqualTo(2 * GI);
            assertThat(r.getVolumeCapability().getMount().getFsType()).isEqualTo("ext4");
            assertThat(r.getVolumeCapability().getAccessMode().getMode())
                    .isEqualTo(CsiApi.VolumeCapability.AccessMode.Mode.SINGLE_NODE_WRITER);
        });
        PersistentVolumeClaim claim = claim("data");
        assertThat(claim.getStatus().getCapacity()).containsEntry("storage", new Quantity("2Gi"));
        assertThat(claim.getStatus().getConditions()).isNullOrEmpty();
        String succeeded = "Normal FileSystemResizeSuccessful MountVolume.NodeExpandVolume succeeded for volume \"pv-data\" "
                + NODE;
        assertThat(node.objectEvents).contains("Pod/pod-a " + succeeded, "PersistentVolumeClaim/data " + succeeded);

        // Done: the next syncs find the volume as large as its PersistentVolume.
        vm.mountVolumes(pod("a", "data"));
        vm.passesAfterBackOff();
        assertThat(driver.expansions).hasSize(1);
    }

    @Test
    void aVolumeThatGrewWhileNoPodUsedItIsExpandedAsItIsMountedWithTheGlobalMountAsItsStagingPath() throws Exception {
        // Upstream gives every CSI PersistentVolume's global mount path as staging_target_path, staged or not.
        driver.expandVolume = true;
        node.csiClaimOfSize("data", "vol-1", "2Gi", "1Gi");
        ManualVolumeManager vm = node.volumeManager();

        Path path = vm.mountVolumes(pod("a", "data")).get("data");

        assertThat(driver.publishes).hasSize(1);
        assertThat(driver.expansions).singleElement().satisfies(r -> {
            assertThat(r.getVolumePath()).isEqualTo(path.toString());
            assertThat(r.getStagingTargetPath()).isEqualTo(globalMount(VOL_1).toString());
            assertThat(r.getCapacityRange().getRequiredBytes()).isEqualTo(2 * GI);
        });
        assertThat(claim("data").getStatus().getCapacity()).containsEntry("storage", new Quantity("2Gi"));
        assertThat(claim("data").getStatus().getConditions()).isNullOrEmpty();
        assertThat(node.events).contains("FileSystemResizeSuccessful MountVolume.NodeExpandVolume succeeded for volume "
                + "\"pv-data\" " + NODE);
    }

    @Test
    void aDriverWithoutExpandVolumeIsNotCalledAndItsClaimStaysPendingAsUpstreamLeavesIt() throws Exception {
        node.csiClaimOfSize("grown", "vol-1", "2Gi", "1Gi");
        node.csiClaimOfSize("data", "vol-2", "1Gi", "1Gi");
        ManualVolumeManager vm = node.volumeManager();

        assertThat(vm.mountVolumes(pod("a", "grown"))).containsKey("data");
        vm.mountVolumes(pod("b", "data"));
        node.resizeAsTheController("data", "2Gi");
        vm.mountVolumes(pod("b", "data"));
        vm.passesAfterBackOff();

        assertThat(driver.expansions).isEmpty();
        for (String name : new String[] {"grown", "data"}) {
            PersistentVolumeClaim claim = claim(name);
            assertThat(claim.getStatus().getCapacity()).containsEntry("storage", new Quantity("1Gi"));
            assertThat(claim.getStatus().getConditions()).extracting("type").containsExactly("FileSystemResizePending");
        }
        assertThat(node.events).noneMatch(e -> e.contains("Resize"));
    }

    @Test
    void aFailedInUseExpansionIsTheVolumeResizeFailedEventAndIsTriedAgainAfterItsBackOff() throws Exception {
        driver.expandVolume = true;
        driver.failIn.put("NodeExpandVolume", Status.INTERNAL.withDescription("disk full"));
        node.csiClaimOfSize("data", "vol-1", "1Gi", "1Gi");
        node.csiClaimOfSize("other", "vol-2", "1Gi", "1Gi");
        ManualVolumeManager vm = node.volumeManager();
        vm.mountVolumes(pod("a", "data"));
        vm.mountVolumes(pod("b", "other"));

        node.resizeAsTheController("data", "2Gi");
        vm.mountVolumes(pod("a", "data"));

        assertThat(driver.expansions).hasSize(1);
        assertThat(node.objectEvents).contains("Pod/pod-a Warning VolumeResizeFailed NodeExpandVolume.NodeExpandVolume "
                + "failed for volume \"pv-data\" : Expander.NodeExpand failed to expand the volume : rpc error: code = "
                + "Internal desc = disk full");
        assertThat(claim("data").getStatus().getCapacity()).containsEntry("storage", new Quantity("1Gi"));
        // The pod keeps its volume, and the other pod's goes on as before.
        assertThat(vm.mountVolumes(pod("a", "data"))).containsKey("data");
        assertThat(vm.mountVolumes(pod("b", "other"))).containsKey("data");
        assertThat(driver.expansions).as("not before its back-off").hasSize(1);

        driver.failIn.clear();
        vm.passesAfterBackOff();

        assertThat(driver.expansions).hasSize(2);
        assertThat(claim("data").getStatus().getCapacity()).containsEntry("storage", new Quantity("2Gi"));
        assertThat(node.events).contains("FileSystemResizeSuccessful MountVolume.NodeExpandVolume succeeded for volume "
                + "\"pv-data\" " + NODE);
    }

    @Test
    void aFailedExpansionDuringTheMountFailsTheMountUntilTheDriverExpandsIt() throws Exception {
        driver.expandVolume = true;
        driver.failIn.put("NodeExpandVolume", Status.INTERNAL.withDescription("disk full"));
        node.csiClaimOfSize("data", "vol-1", "2Gi", "1Gi");
        ManualVolumeManager vm = node.volumeManager();

        assertThatThrownBy(() -> vm.mountVolumes(pod("a", "data"))).hasMessage("MountVolume.Setup failed while expanding "
                + "volume for volume \"pv-data\" : Expander.NodeExpand failed to expand the volume : rpc error: code = "
                + "Internal desc = disk full");
        assertThat(claim("data").getStatus().getCapacity()).containsEntry("storage", new Quantity("1Gi"));

        driver.failIn.clear();
        Path path = vm.mountVolumes(pod("a", "data")).get("data");

        assertThat(node.mounts.isMountPoint(path)).isTrue();
        assertThat(driver.expansions.getLast().getVolumePath()).isEqualTo(path.toString());
        assertThat(claim("data").getStatus().getCapacity()).containsEntry("storage", new Quantity("2Gi"));
    }

    @Test
    void aDriverThatCannotExpandInUseIsNotAskedAgainOnThisNode() throws Exception {
        driver.expandVolume = true;
        driver.failIn.put("NodeExpandVolume", Status.FAILED_PRECONDITION.withDescription("volume is in use"));
        node.csiClaimOfSize("data", "vol-1", "1Gi", "1Gi");
        ManualVolumeManager vm = node.volumeManager();
        vm.mountVolumes(pod("a", "data"));

        node.resizeAsTheController("data", "2Gi");
        vm.mountVolumes(pod("a", "data"));
        vm.passesAfterBackOff();
        vm.mountVolumes(pod("a", "data"));

        assertThat(driver.expansions).hasSize(1);
        assertThat(node.events).noneMatch(e -> e.contains("Resize"));
        assertThat(claim("data").getStatus().getConditions()).extracting("type").containsExactly("FileSystemResizePending");
    }

    @Test
    void aReadOnlyClaimIsNotExpandedAndSaysSoOnThePodAndTheClaim() throws Exception {
        driver.expandVolume = true;
        node.csiClaimOfSize("data", "vol-1", "2Gi", "1Gi");
        ManualVolumeManager vm = node.volumeManager();
        Pod pod = new PodBuilder(pod("a", "data")).editSpec().editFirstVolume().editPersistentVolumeClaim()
                .withReadOnly(true).endPersistentVolumeClaim().endVolume().endSpec().build();

        assertThat(vm.mountVolumes(pod)).containsKey("data");

        assertThat(driver.expansions).isEmpty();
        String failed = "Warning FileSystemResizeFailed MountVolume.NodeExpandVolume failed for volume \"pv-data\" "
                + "requested read-only file system";
        assertThat(node.objectEvents).contains("Pod/pod-a " + failed, "PersistentVolumeClaim/data " + failed);
    }

    @Test
    void aClaimWhoseVolumeDidNotGrowGetsNoExpansionNorAnyWrite() throws Exception {
        driver.expandVolume = true;
        node.csiClaimOfSize("data", "vol-1", "1Gi", "1Gi");
        String version = claim("data").getMetadata().getResourceVersion();
        ManualVolumeManager vm = node.volumeManager();

        vm.mountVolumes(pod("a", "data"));
        vm.mountVolumes(pod("a", "data"));
        vm.passesAfterBackOff();

        assertThat(driver.expansions).isEmpty();
        assertThat(claim("data").getMetadata().getResourceVersion()).isEqualTo(version);
        assertThat(node.events).noneMatch(e -> e.contains("Resize"));
    }
}
