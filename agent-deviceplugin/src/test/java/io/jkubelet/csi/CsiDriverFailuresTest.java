package io.jkubelet.csi;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.jkubelet.core.volume.VolumeException;
import io.jkubelet.core.volumemanager.ManualVolumeManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static io.jkubelet.csi.CsiNode.claimingPod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A CSI driver that does not answer, or goes during a call: each operation's calls end at upstream's deadline
 * ({@code csiTimeout}, here shortened), with upstream's error and {@code FailedMount} event, and the operation is tried
 * again after its back-off; a stage or publish without a final answer leaves the volume perhaps mounted (upstream's
 * uncertain mounts), so that it is unstaged or unpublished if its pod goes before a try succeeds. Real gRPC on unix
 * sockets ({@link TestCsiDriver}), the volume manager's reconciler driving the mounts ({@link CsiNode}).
 */
@EnableKubernetesMockClient(crud = true)
class CsiDriverFailuresTest {
    /**
     * The deadline of each operation's calls: long enough for the calls before the one that hangs (capabilities, the
     * CSIDriver's reads), short enough for a test.
     */
    static final Duration CSI_TIMEOUT = Duration.ofSeconds(2);
    static final String DEADLINE_EXCEEDED = "rpc error: code = DeadlineExceeded desc = context deadline exceeded";
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
        node.csiClaim("data", CsiNode.DRIVER, "vol-1");
    }

    @AfterEach
    void unmountAll() throws Exception {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void aNodePublishThatNeverAnswersFailsAtItsDeadlineWithUpstreamsEventAndIsTriedAgain() throws Exception {
        driver.hangIn.add("NodePublishVolume");
        ManualVolumeManager vm = node.volumeManager(CSI_TIMEOUT);

        assertThatThrownBy(() -> vm.mountVolumes(claimingPod("a", "data")))
                .hasMessage("MountVolume.SetUp failed for volume \"pv-data\" : " + DEADLINE_EXCEEDED);
        assertThat(node.events).first().isEqualTo("FailedMount MountVolume.SetUp failed for volume \"pv-data\" : "
                + DEADLINE_EXCEEDED);
        Path target = node.volumeDir("a", "pv-data").resolve("mount");
        assertThat(driver.hung).as("tried again after its back-off").hasSizeGreaterThan(1)
                .allMatch(("NodePublishVolume vol-1")::equals);
        assertThat(target.resolveSibling("vol_data.json")).as("kept: the driver may have published it").exists();

        driver.hangIn.clear();
        Path mounted = vm.mountVolumes(claimingPod("a", "data")).get("data");

        assertThat(mounted).isEqualTo(target);
        assertThat(node.mounts.isMountPoint(mounted)).isTrue();
    }

    @Test
    void aVolumeWhosePublishNeverAnsweredIsUnpublishedWhenItsPodGoes() throws Exception {
        driver.hangIn.add("NodePublishVolume");
        ManualVolumeManager vm = node.volumeManager(CSI_TIMEOUT);
        assertThatThrownBy(() -> vm.mountVolumes(claimingPod("a", "data"))).isInstanceOf(VolumeException.class);
        assertThat(vm.manager().podVolumesExist("a")).as("perhaps mounted").isTrue();

        driver.hangIn.clear();
        vm.cleanupPod("a");

        Path target = node.volumeDir("a", "pv-data").resolve("mount");
        assertThat(driver.teardowns).containsExactly("NodeUnpublishVolume vol-1 " + target);
        assertThat(target.getParent()).doesNotExist();
        assertThat(vm.manager().podVolumesExist("a")).isFalse();
    }

    @Test
    void aVolumeWhoseStageNeverAnsweredIsUnstagedOnceNoPodWantsIt() throws Exception {
        driver.stageUnstage = true;
        driver.hangIn.add("NodeStageVolume");
        ManualVolumeManager vm = node.volumeManager(CSI_TIMEOUT);
        Path global = dir.resolve("kubelet/plugins/kubernetes.io/csi/" + CsiNode.DRIVER
                + "/d2e8363faaac7ae76def3b14091d8eb5755f6b92e9531627aeec833a8731cc49/globalmount");

        assertThatThrownBy(() -> vm.mountVolumes(claimingPod("a", "data")))
                .hasMessage("MountVolume.MountDevice failed for volume \"pv-data\" : " + DEADLINE_EXCEEDED);
        assertThat(driver.publishes).isEmpty();
        assertThat(global.resolveSibling("vol_data.json")).as("kept: the driver may have staged it").exists();

        driver.hangIn.clear();
        vm.cleanupPod("a");
        vm.passes();

        assertThat(driver.teardowns).containsExactly("NodeUnstageVolume vol-1 " + global);
        assertThat(global.getParent()).doesNotExist();
    }

    @Test
    void aDriverWhoseSocketGoesDuringAPublishFailsItAtOnceNamingTheDriverAndItsSocket() throws Exception {
        driver.hangIn.add("NodePublishVolume");
        // Upstream's 2 minutes: what ends the call is the driver going, not its deadline.
        ManualVolumeManager vm = node.volumeManager();
        CompletableFuture<Void> mount = CompletableFuture.runAsync(() -> {
            try {
                vm.mountVolumes(claimingPod("a", "data"));
            } catch (VolumeException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> !driver.hung.isEmpty());

        driver.stop();

        await().atMost(Duration.ofSeconds(30)).until(mount::isDone);
        assertThat(mount).isCompletedExceptionally();
        String gone = "CSI driver " + CsiNode.DRIVER + ": its socket " + driver.endpoint + " is gone: rpc error: code = ";
        // The call open when it went, then the tries after it, which cannot dial.
        assertThat(node.events).first().asString()
                .startsWith("FailedMount MountVolume.SetUp failed for volume \"pv-data\" : " + gone)
                .matches(".* code = (Canceled|Unavailable) desc = .*");
        assertThat(node.events).last().asString().endsWith(gone + "Unavailable desc = connection error: desc = "
                + "\"transport: Error while dialing dial unix " + driver.endpoint + ": connect: no such file or directory\"");
    }
}
