package io.jkubelet.csi;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.jkubelet.core.testing.PlainTempDir;
import io.jkubelet.core.volumemanager.ManualVolumeManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;

import static io.jkubelet.csi.CsiNode.DRIVER;
import static io.jkubelet.csi.CsiNode.claimingPod;
import static io.jkubelet.csi.CsiNode.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A pod's {@code fsGroup} on its CSI volumes (upstream v1.30's {@code SetUpAt} with {@code supportsFSGroup} and
 * {@code SetVolumeOwnership}): the volume's files, as the driver publishes them ({@link TestCsiDriver}'s bind mount of
 * its directory, made by root), are given to the group when the CSIDriver's {@code fsGroupPolicy} says so, through the
 * volume manager ({@link CsiNode}).
 */
@EnableKubernetesMockClient(crud = true)
class CsiVolumeOwnershipTest {
    private static final long FS_GROUP = 4321;
    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir Path dir;
    CsiNode node;
    TestCsiDriver driver;

    @BeforeEach
    void registerTheDriver() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "the driver bind-mounts; chown needs root");
        node = CsiNode.withDriver(client, PlainTempDir.of(dir));
        driver = node.driver;
    }

    @AfterEach
    void unmountAll() throws Exception {
        if (node != null) {
            node.close();
        }
    }

    /** The driver's volume {@code handle} as root left it: a file in a directory, only the owner's. */
    private void filesOfRoot(String handle) throws IOException {
        Path data = Files.createDirectories(driver.volumeDir(handle).resolve("db"));
        Files.writeString(data.resolve("table"), "rows");
        Files.setAttribute(data, "unix:mode", 0700);
        Files.setAttribute(data.resolve("table"), "unix:mode", 0600);
    }

    private static Pod withFsGroup(Pod pod, String changePolicy) {
        return new PodBuilder(pod).editSpec().withNewSecurityContext().withFsGroup(FS_GROUP)
                .withFsGroupChangePolicy(changePolicy).endSecurityContext().endSpec().build();
    }

    private static int gid(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:gid", LinkOption.NOFOLLOW_LINKS);
    }

    private static String mode(Path p) throws IOException {
        return Integer.toOctalString((Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777);
    }

    /**
     * Mounts, for pod {@code uid} with the fsGroup, the claim of the driver's volume {@code handle} (root's files) of
     * {@code fsType} (none when null); the path of the table file in it.
     */
    private Path mountWithFsGroup(String uid, String handle, String fsType, String... accessModes) throws Exception {
        filesOfRoot(handle);
        node.csiClaim("claim-" + handle, DRIVER, handle, fsType, accessModes);
        return node.volumeManager().mountVolumes(withFsGroup(claimingPod(uid, "claim-" + handle), null)).get("data")
                .resolve("db/table");
    }

    @Test
    void withFilePolicyEveryFileOfTheVolumeIsGivenToTheFsGroup() throws Exception {
        node.csiDriverWithFsGroupPolicy("File");

        Path path = mountWithFsGroup("a", "vol-1", null, "ReadWriteMany").getParent().getParent();

        for (Path p : new Path[] {path, path.resolve("db"), path.resolve("db/table")}) {
            assertThat(gid(p)).as(p.toString()).isEqualTo(FS_GROUP);
        }
        assertThat(mode(path.resolve("db"))).isEqualTo("2770");
        assertThat(mode(path.resolve("db/table"))).isEqualTo("660");
        assertThat(gid(driver.volumeDir("vol-1").resolve("db/table"))).as("the volume's own files").isEqualTo(FS_GROUP);
    }

    @Test
    void withNonePolicyTheFilesAreLeftAsTheyAreWhereFileGivesThemToTheFsGroup() throws Exception {
        node.csiDriverWithFsGroupPolicy("None");
        Path none = mountWithFsGroup("a", "vol-1", "ext4", "ReadWriteOnce");

        node.csiDriverWithFsGroupPolicy("File");
        Path file = mountWithFsGroup("b", "vol-2", "ext4", "ReadWriteOnce");

        assertThat(gid(none)).isZero();
        assertThat(mode(none.getParent())).isEqualTo("700");
        assertThat(gid(file)).isEqualTo(FS_GROUP);
    }

    @Test
    void withTheDefaultPolicyOnlyAReadWriteOnceVolumeWithAnFsTypeIsGivenToTheFsGroup() throws Exception {
        node.csiDriverWithFsGroupPolicy("ReadWriteOnceWithFSType");

        Path noFsType = mountWithFsGroup("a", "vol-1", null, "ReadWriteOnce");
        Path shared = mountWithFsGroup("b", "vol-2", "ext4", "ReadWriteMany");
        Path formatted = mountWithFsGroup("c", "vol-3", "ext4", "ReadWriteOnce");

        assertThat(gid(noFsType)).isZero();
        assertThat(gid(shared)).isZero();
        assertThat(gid(formatted)).isEqualTo(FS_GROUP);
    }

    @Test
    void withTheDefaultPolicyAnInlineVolumeWithAnFsTypeIsGivenToTheFsGroup() throws Exception {
        node.csiDriverWithFsGroupPolicy("ReadWriteOnceWithFSType");
        Pod pod = withFsGroup(pod("a", new VolumeBuilder().withName("scratch").withNewCsi().withDriver(DRIVER)
                .withFsType("ext4").withVolumeAttributes(Map.of("size", "1Mi")).endCsi().build()), null);
        String handle = "csi-80e97162c8db2c02709a38982b45cf936367298e0c12f8cb4905fbec6271183d";
        filesOfRoot(handle);

        Path path = node.volumeManager().mountVolumes(pod).get("scratch");

        assertThat(gid(path.resolve("db/table"))).isEqualTo(FS_GROUP);
    }

    @Test
    void onRootMismatchLeavesAVolumeWhoseRootAlreadyMatchesAndChangesOneWhoseRootDoesNot() throws Exception {
        node.csiDriverWithFsGroupPolicy("File");
        ManualVolumeManager vm = node.volumeManager();
        for (String handle : new String[] {"vol-1", "vol-2"}) {
            filesOfRoot(handle);
            node.csiClaim("claim-" + handle, DRIVER, handle, null, "ReadWriteOnce");
        }
        Files.setAttribute(driver.volumeDir("vol-1"), "unix:gid", (int) FS_GROUP);
        Files.setAttribute(driver.volumeDir("vol-1"), "unix:mode", 02770);

        Path matching = vm.mountVolumes(withFsGroup(claimingPod("a", "claim-vol-1"), "OnRootMismatch")).get("data");
        Path mismatching = vm.mountVolumes(withFsGroup(claimingPod("b", "claim-vol-2"), "OnRootMismatch")).get("data");

        assertThat(gid(matching.resolve("db/table"))).isZero();
        assertThat(gid(mismatching.resolve("db/table"))).isEqualTo(FS_GROUP);
    }

    @Test
    void aDriverAskingForVolumeMountGroupStillHasItsFilesGivenByTheKubeletWhichCannotDelegate() throws Exception {
        driver.volumeMountGroup = true;
        node.csiDriverWithFsGroupPolicy("File");

        Path table = mountWithFsGroup("a", "vol-1", null, "ReadWriteOnce");

        assertThat(gid(table)).isEqualTo(FS_GROUP);
    }

    @Test
    void aCsiDriverWithoutFsGroupPolicyFailsTheSetUpAsUpstreams() throws Exception {
        node.csiDriverWithFsGroupPolicy(null);
        node.csiClaim("data", DRIVER, "vol-1");
        ManualVolumeManager vm = node.volumeManager();

        assertThatThrownBy(() -> vm.mountVolumes(withFsGroup(claimingPod("a", "data"), null))).hasMessage(
                "MountVolume.SetUp failed for volume \"pv-data\" : kubernetes.io/csi: mounter.SetupAt failed to check "
                + "fsGroup policy: kubernetes.io/csi: expected valid fsGroupPolicy, received nil value or empty string");
        assertThat(driver.publishes).isEmpty();
    }
}
