package io.jkubelet.core.volumemanager;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

import static io.jkubelet.core.volumemanager.FakePersistentVolumes.boundTo;
import static io.jkubelet.core.volumemanager.FakePersistentVolumes.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A pod's PersistentVolumeClaims: the claim and the volume bound to it read from the apiserver, upstream's messages while
 * the claim cannot be used, the volume mounted once it can, read-only when the claim says so.
 */
class ClaimVolumesTest {
    @TempDir Path root;
    private final LoggingEventRecorder events = new LoggingEventRecorder(Clock.systemUTC());
    private final FakePersistentVolumes apiserver = new FakePersistentVolumes();

    private ManualVolumeManager manager() {
        PodDirs dirs = new PodDirs(root.resolve("kubelet"));
        return new ManualVolumeManager(dirs, new ApiVolumes(PodObjects.standalone(), "node-a", List::of, Clock.systemUTC()),
                apiserver, events);
    }

    /** A pod whose container mounts claim {@code claimName} at /data, or takes it as a device when {@code device}. */
    private static Pod pod(String uid, String claimName, boolean readOnly, boolean device) {
        var app = new ContainerBuilder().withName("app").withImage("busybox");
        if (device) {
            app.addNewVolumeDevice().withName("data").withDevicePath("/dev/xvda").endVolumeDevice();
        } else {
            app.addNewVolumeMount().withName("data").withMountPath("/data").endVolumeMount();
        }
        return new PodBuilder().withNewMetadata().withName("pod-" + uid).withNamespace("default").withUid(uid).endMetadata()
                .withNewSpec().withContainers(app.build()).addNewVolume().withName("data").withNewPersistentVolumeClaim()
                .withClaimName(claimName).withReadOnly(readOnly).endPersistentVolumeClaim().endVolume().endSpec().build();
    }

    private static Pod pod(String uid, String claimName) {
        return pod(uid, claimName, false, false);
    }

    private Path hostDir(String name) throws Exception {
        return Files.createDirectories(root.resolve("host/" + name));
    }

    private String waitError(ManualVolumeManager vm, Pod pod) {
        vm.add(pod);
        vm.passes();
        try {
            vm.manager().waitForAttachAndMount(pod, () -> false);
            return "mounted";
        } catch (VolumeWaitException e) {
            assertThat(e.interrupted()).as("a processing error, not a timeout: " + e.getMessage()).isFalse();
            return e.getMessage();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String failedToProcess(String why) {
        return "unmounted volumes=[data], unattached volumes=[], failed to process volumes=[data]: "
                + "error processing PVC default/data: " + why;
    }

    @Test
    void aClaimThatCannotBeUsedYetEndsTheWaitWithUpstreamsMessage() throws Exception {
        ManualVolumeManager vm = manager();
        assertThat(waitError(vm, pod("u1", "data"))).isEqualTo(failedToProcess(
                "failed to fetch PVC from API server: persistentvolumeclaims \"data\" not found"));

        apiserver.put(claim("default", "data", null));
        assertThat(waitError(vm, pod("u1", "data"))).isEqualTo(failedToProcess("PVC is not bound"));

        PersistentVolumeClaim lost = new PersistentVolumeClaimBuilder(claim("default", "data", "pv-1")).editStatus()
                .withPhase("Lost").endStatus().build();
        apiserver.put(lost);
        assertThat(waitError(vm, pod("u1", "data"))).isEqualTo(failedToProcess("PVC is not bound"));

        apiserver.put(new PersistentVolumeClaimBuilder(claim("default", "data", "pv-1")).editMetadata()
                .withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata().build());
        assertThat(waitError(vm, pod("u1", "data"))).isEqualTo(failedToProcess("PVC is being deleted"));

        apiserver.put(claim("default", "data", "pv-1"));
        assertThat(waitError(vm, pod("u1", "data"))).isEqualTo(failedToProcess(
                "failed to fetch PV pv-1 from API server: persistentvolumes \"pv-1\" not found"));

        apiserver.put(boundTo("pv-1", "default", "other").editSpec().withNewHostPath().withPath(hostDir("a").toString())
                .endHostPath().endSpec().build());
        assertThat(waitError(vm, pod("u1", "data"))).isEqualTo(failedToProcess(
                "found PV object pv-1 but its pv.Spec.ClaimRef.UID other-uid does not point to claim.UID data-uid"));

        // Bound both ways: mounted.
        apiserver.put(boundTo("pv-1", "default", "data").editSpec().withNewHostPath().withPath(hostDir("a").toString())
                .endHostPath().endSpec().build());
        assertThat(waitError(vm, pod("u1", "data"))).isEqualTo("mounted");
        assertThat(vm.manager().getMountedVolumesForPod(pod("u1", "data")).get("data").path()).isEqualTo(hostDir("a"));
    }

    @Test
    void aHostPathClaimIsTheHostsDirectoryReadOnlyWhenTheClaimIsAndNamedForItsClaimInTheStats() throws Exception {
        apiserver.put(claim("default", "data", "pv-1"));
        apiserver.put(boundTo("pv-1", "default", "data").editSpec().withNewHostPath().withPath(hostDir("a").toString())
                .endHostPath().endSpec().build());
        ManualVolumeManager vm = manager();
        VolumeInfo rw = vm.manager().getMountedVolumesForPod(withMounted(vm, pod("u1", "data"))).get("data");
        assertThat(rw.readOnly()).isFalse();
        assertThat(rw.claim().getClaimName()).isEqualTo("data");
        assertThat(rw.metrics()).isEqualTo(VolumeMetrics.NONE);

        VolumeInfo ro = vm.manager().getMountedVolumesForPod(withMounted(vm, pod("u2", "data", true, false))).get("data");
        assertThat(ro.readOnly()).isTrue();
        assertThat(ro.path()).isEqualTo(hostDir("a"));
    }

    private static Pod withMounted(ManualVolumeManager vm, Pod pod) throws Exception {
        vm.mountVolumes(pod);
        return pod;
    }

    @Test
    void aFilesystemVolumeGivenAsADeviceIsRefusedAsUpstream() throws Exception {
        apiserver.put(claim("default", "data", "pv-1"));
        apiserver.put(boundTo("pv-1", "default", "data").editSpec().withNewHostPath().withPath(hostDir("a").toString())
                .endHostPath().endSpec().build());
        assertThat(waitError(manager(), pod("u1", "data", false, true))).isEqualTo("unmounted volumes=[data], "
                + "unattached volumes=[], failed to process volumes=[data]: volume data has volumeMode Filesystem, but is "
                + "specified in volumeDevices");
    }

    @Test
    void anUnboundClaimIsReadOncePerSyncNotAtEveryPass() {
        apiserver.put(claim("default", "data", null));
        ManualVolumeManager vm = manager();
        assertThat(waitError(vm, pod("u1", "data"))).endsWith("PVC is not bound");
        vm.passes(); // the pass after the sync processes the pod again, as it asked
        int reads = apiserver.claimReads.get();
        for (int i = 0; i < 20; i++) {
            vm.passes();
        }
        assertThat(apiserver.claimReads.get()).isEqualTo(reads);
        // The next sync has it read again, once.
        assertThat(waitError(vm, pod("u1", "data"))).endsWith("PVC is not bound");
        vm.passes();
        vm.passes();
        assertThat(apiserver.claimReads.get()).isEqualTo(reads + 1);
    }

    /** Pod {@code web} (UID {@code uid}) whose container mounts its generic ephemeral volume {@code scratch} at /scratch. */
    private static Pod ephemeralPod(String uid) {
        return new PodBuilder().withNewMetadata().withName("web").withNamespace("default").withUid(uid).endMetadata()
                .withNewSpec().withContainers(new ContainerBuilder().withName("app").withImage("busybox").addNewVolumeMount()
                        .withName("scratch").withMountPath("/scratch").endVolumeMount().build())
                .addNewVolume().withName("scratch").withNewEphemeral().withNewVolumeClaimTemplate().withNewSpec()
                .withAccessModes("ReadWriteOnce").endSpec().endVolumeClaimTemplate().endEphemeral().endVolume().endSpec().build();
    }

    /** The ephemeral volume controller's claim for {@code web}'s volume: controlled by the pod of UID {@code ownerUid}. */
    private static PersistentVolumeClaim ephemeralClaim(String ownerUid) {
        return new PersistentVolumeClaimBuilder(claim("default", "web-scratch", "pv-e")).editMetadata().addNewOwnerReference()
                .withApiVersion("v1").withKind("Pod").withName("web").withUid(ownerUid).withController(true).endOwnerReference()
                .endMetadata().build();
    }

    @Test
    void aGenericEphemeralVolumeIsThePodsOwnClaimNamedForPodAndVolumeAndAClaimThePodDoesNotControlIsRefused() throws Exception {
        ManualVolumeManager vm = manager();
        String failed = "unmounted volumes=[scratch], unattached volumes=[], failed to process volumes=[scratch]: ";
        // Until the controller has made it, the claim is missing: the pod waits, as for any claim.
        assertThat(waitError(vm, ephemeralPod("u1"))).isEqualTo(failed + "error processing PVC default/web-scratch: "
                + "failed to fetch PVC from API server: persistentvolumeclaims \"web-scratch\" not found");

        // A claim of that name made for an earlier pod named web (or by hand) is not this pod's: its data is not given.
        apiserver.put(boundTo("pv-e", "default", "web-scratch").editSpec().withNewHostPath().withPath(hostDir("e").toString())
                .endHostPath().endSpec().build());
        apiserver.put(ephemeralClaim("u0"));
        assertThat(waitError(vm, ephemeralPod("u1"))).isEqualTo(failed
                + "PVC default/web-scratch was not created for pod default/web (pod is not owner)");
        apiserver.put(claim("default", "web-scratch", "pv-e"));
        assertThat(waitError(vm, ephemeralPod("u1"))).isEqualTo(failed
                + "PVC default/web-scratch was not created for pod default/web (pod is not owner)");

        // The pod's own claim, bound: mounted, and named for its claim in the stats.
        apiserver.put(ephemeralClaim("u1"));
        assertThat(waitError(vm, ephemeralPod("u1"))).isEqualTo("mounted");
        VolumeInfo scratch = vm.manager().getMountedVolumesForPod(ephemeralPod("u1")).get("scratch");
        assertThat(scratch.path()).isEqualTo(hostDir("e"));
        assertThat(scratch.readOnly()).isFalse();
        assertThat(scratch.claim().getClaimName()).isEqualTo("web-scratch");
    }
}
