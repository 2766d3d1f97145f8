package io.jkubelet.core.volumemanager;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.jkubelet.core.events.Event;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volume.util.subpath.MountTable;
import io.jkubelet.core.volume.util.subpath.Subpath;
import io.jkubelet.core.volume.util.subpath.Subpather;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The volume manager's loops as a pod's life sees them: its sync waits for the volumes its containers use, with
 * upstream's messages when it cannot have them; its termination waits for their unmount; a restarted kubelet takes
 * what is mounted under a running pod as its own and tears down only what no pod wants, once the pods are known.
 */
class ReconcilingVolumeManagerTest {
    @TempDir Path root;
    private final LoggingEventRecorder events = new LoggingEventRecorder(Clock.systemUTC());
    private final LinuxMounts mounts = new LinuxMounts();
    private final List<Path> tmpfsToUnmount = new ArrayList<>();

    @AfterEach
    void unmountLeftovers() throws Exception {
        for (Path p : tmpfsToUnmount) {
            if (mounts.isMountPoint(p)) {
                mounts.unmount(p);
            }
        }
    }

    private ManualVolumeManager manager() {
        return ManualVolumeManager.standalone(root, events);
    }

    private static Pod pod(String uid, Volume... volumes) {
        var app = new ContainerBuilder().withName("app").withImage("busybox");
        for (Volume v : volumes) {
            app.addNewVolumeMount().withName(v.getName()).withMountPath("/" + v.getName()).endVolumeMount();
        }
        return new PodBuilder().withNewMetadata().withName("pod-" + uid).withNamespace("default").withUid(uid).endMetadata()
                .withNewSpec().withContainers(app.build()).withVolumes(volumes).endSpec().build();
    }

    private static Volume emptyDir(String name) {
        return new VolumeBuilder().withName(name).withNewEmptyDir().endEmptyDir().build();
    }

    private static Volume memory(String name) {
        return new VolumeBuilder().withName(name).withNewEmptyDir().withMedium("Memory").endEmptyDir().build();
    }

    private Path emptyDirPath(String uid, String name) {
        return root.resolve("pods/" + uid + "/volumes/kubernetes.io~empty-dir/" + name);
    }

    private List<String> failedMounts(String podName) {
        return events.events().stream().filter(e -> e.reason().equals("FailedMount")
                && e.involvedObject().getName().equals(podName)).map(Event::message).toList();
    }

    @Test
    void aVolumeThatKeepsFailingEndsTheWaitAfterTheTimeoutWithUpstreamsMessageAndTheMountsOwnEvents() {
        ManualVolumeManager vm = manager();
        Pod pod = pod("u1", emptyDir("cache"), new VolumeBuilder().withName("host").withNewHostPath()
                .withPath(root.resolve("missing").toString()).withType("Directory").endHostPath().build());
        vm.add(pod);
        vm.passes();

        assertThatThrownBy(() -> vm.manager().waitForAttachAndMount(pod, () -> false))
                .isInstanceOfSatisfying(VolumeWaitException.class, e -> assertThat(e.interrupted()).isTrue())
                .hasMessage("unmounted volumes=[host], unattached volumes=[], failed to process volumes=[]: "
                        + "context deadline exceeded");
        assertThat(failedMounts("pod-u1")).isNotEmpty().allMatch(m -> m.equals("MountVolume.SetUp failed for volume "
                + "\"host\" : hostPath type check failed: " + root.resolve("missing") + " is not a directory"));
        // The volume that could be mounted is.
        assertThat(vm.manager().getMountedVolumesForPod(pod)).containsOnlyKeys("cache");
    }

    @Test
    void aPodWhoseTerminationIsRequestedStopsWaitingAtOnce() {
        ManualVolumeManager vm = manager();
        Pod pod = pod("u1", new VolumeBuilder().withName("host").withNewHostPath()
                .withPath(root.resolve("missing").toString()).withType("File").endHostPath().build());
        vm.add(pod);
        vm.passes();
        assertThatThrownBy(() -> vm.manager().waitForAttachAndMount(pod, () -> true))
                .isInstanceOfSatisfying(VolumeWaitException.class, e -> assertThat(e.interrupted()).isTrue())
                .hasMessageEndingWith(": context canceled");
    }

    @Test
    void aTerminatedPodsVolumesAreUnmountedAndTheirDirectoriesRemoved() throws Exception {
        ManualVolumeManager vm = manager();
        Pod pod = pod("u1", emptyDir("cache"));
        Path dir = vm.mountVolumes(pod).get("cache");
        Files.writeString(dir.resolve("data"), "x");

        // Still wanted while its containers may run.
        vm.terminating("u1");
        vm.passes();
        assertThat(dir.resolve("data")).exists();
        assertThat(vm.manager().podVolumesExist("u1")).isTrue();

        vm.containersStopped("u1");
        vm.manager().waitForUnmount(pod);
        assertThat(dir).doesNotExist();
        assertThat(vm.manager().podVolumesExist("u1")).isFalse();
        assertThat(vm.manager().getMountedVolumesForPod(pod)).isEmpty();
    }

    @Test
    void aTerminatedPodsSubPathMountsGoWithItsVolumes() throws Exception {
        MountTable.assumeCanMount();
        ManualVolumeManager vm = manager();
        Pod pod = pod("u1", emptyDir("cache"));
        Path dir = vm.mountVolumes(pod).get("cache");
        Files.createDirectories(dir.resolve("logs"));
        // What makeMounts made for the container's subPath.
        Path target = new Subpather(mounts).prepareSafeSubpath(new Subpath(0, dir.resolve("logs"), "cache", dir,
                root.resolve("pods/u1"), "app"));
        tmpfsToUnmount.add(target);

        vm.containersStopped("u1");
        vm.manager().waitForUnmount(pod);

        assertThat(mounts.isMountPoint(target)).isFalse();
        assertThat(root.resolve("pods/u1/volume-subpaths")).doesNotExist();
        assertThat(dir).doesNotExist();
    }

    @Test
    void aTerminatingPodsVolumesAreNotMountedAgain() throws Exception {
        ManualVolumeManager vm = manager();
        Pod pod = pod("u1", emptyDir("cache"));
        vm.add(pod);
        vm.sourcesReady(() -> true);
        vm.passes(); // the pods are known
        vm.terminating("u1");
        Pod late = pod("u2", emptyDir("cache"));
        vm.add(late);
        vm.terminating("u2");
        vm.passes();
        assertThat(emptyDirPath("u2", "cache")).doesNotExist();
    }

    @Test
    void afterARestartAMountedVolumeOfARunningPodStaysAndAnOrphansIsTornDownOnceThePodsAreKnown() throws Exception {
        assumeTrue(new LinuxMounts().isMountPoint(Path.of("/proc")), "needs a mount table");
        ManualVolumeManager before = manager();
        Path running = before.mountVolumes(pod("running", memory("shm"))).get("shm");
        Path gone = before.mountVolumes(pod("gone", memory("shm"))).get("shm");
        tmpfsToUnmount.addAll(List.of(running, gone));
        Files.writeString(running.resolve("state"), "kept");
        assertThat(mounts.isMountPoint(running)).isTrue();

        // A new kubelet over the same root: only "running" comes back from the sources, later.
        ManualVolumeManager after = manager();
        boolean[] sourcesReady = {false};
        after.sourcesReady(() -> sourcesReady[0]);
        after.reconstruct();
        after.passes();
        // Until every source has delivered its pods nothing is unmounted, orphans included.
        assertThat(mounts.isMountPoint(gone)).isTrue();
        assertThat(after.manager().podVolumesExist("gone")).isTrue();

        after.add(pod("running", memory("shm")));
        sourcesReady[0] = true;
        after.passes(); // the populator adds the pods and says so
        after.passes();
        assertThat(mounts.isMountPoint(running)).isTrue();
        assertThat(Files.readString(running.resolve("state"))).isEqualTo("kept");
        assertThat(after.manager().getMountedVolumesForPod(pod("running", memory("shm")))).containsOnlyKeys("shm");
        assertThat(mounts.isMountPoint(gone)).isFalse();
        assertThat(gone).doesNotExist();
    }

    @Test
    void afterARestartAnOrphansVolumeOnDiskIsRemovedAndARunningPodsKeepsItsData() throws Exception {
        ManualVolumeManager before = manager();
        Path running = before.mountVolumes(pod("running", emptyDir("cache"))).get("cache");
        Path gone = before.mountVolumes(pod("gone", emptyDir("cache"))).get("cache");
        Files.writeString(running.resolve("state"), "kept");
        Files.writeString(gone.resolve("state"), "orphan's");

        ManualVolumeManager after = manager();
        after.reconstruct();
        after.add(pod("running", emptyDir("cache")));
        after.passes();
        after.passes();
        assertThat(Files.readString(running.resolve("state"))).isEqualTo("kept");
        assertThat(gone).doesNotExist();
        assertThat(after.manager().getMountedVolumesForPod(pod("running", emptyDir("cache")))).containsOnlyKeys("cache");
    }

    @Test
    void aFailedMountIsRetriedAfterItsBackOffNotAtEachPass() {
        ManualVolumeManager vm = manager();
        Pod pod = pod("u1", new VolumeBuilder().withName("host").withNewHostPath()
                .withPath(root.resolve("missing").toString()).withType("Directory").endHostPath().build());
        vm.add(pod);
        vm.passes();
        vm.passes();
        vm.passes();
        assertThat(failedMounts("pod-u1")).hasSize(1);
    }

    @Test
    void theNodeStatusHasNoVolumesInUseWithoutAttachableVolumes() throws Exception {
        ManualVolumeManager vm = manager();
        vm.mountVolumes(pod("u1", emptyDir("cache")));
        assertThat(vm.manager().reconcilerStatesHasBeenSynced()).isTrue();
        assertThat(vm.manager().getVolumesInUse()).isEmpty();
    }

    @Test
    void aStandaloneNodeServesDownwardApiVolumes() throws Exception {
        ManualVolumeManager vm = new ManualVolumeManager(new PodDirs(root), new ApiVolumes(PodObjects.standalone(),
                "node-a", List::of, Clock.systemUTC()), io.jkubelet.core.objects.PersistentVolumeClient.STANDALONE, events);
        assumeTrue(new LinuxMounts().isMountPoint(Path.of("/proc")), "needs a mount table");
        Pod pod = pod("u1", new VolumeBuilder().withName("info").withNewDownwardAPI().addNewItem().withPath("name")
                .withNewFieldRef().withFieldPath("metadata.name").endFieldRef().endItem().endDownwardAPI().build());
        Path dir = vm.mountVolumes(pod).get("info");
        tmpfsToUnmount.add(dir);
        assertThat(Files.readString(dir.resolve("name"))).isEqualTo("pod-u1");
        assertThat(vm.manager().getMountedVolumesForPod(pod).get("info").readOnly()).isTrue();
    }
}
