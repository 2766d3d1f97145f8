package io.jkubelet.csi;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.storage.CSIDriverBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.core.cluster.fabric8.Fabric8CsiNodes;
import io.jkubelet.core.cluster.fabric8.Fabric8CsiObjects;
import io.jkubelet.core.cluster.fabric8.Fabric8NodeClient;
import io.jkubelet.core.cluster.fabric8.Fabric8ObjectClient;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.pluginmanager.PluginManager;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.testing.MountsUnder;
import io.jkubelet.core.volume.ApiVolumes;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.csi.CsiDrivers;
import io.jkubelet.core.volume.csi.CsiRegistrationHandler;
import io.jkubelet.core.volume.csi.CsiVolumePlugin;
import io.jkubelet.core.volume.csi.NodeInfoManager;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volume.util.LoopDevices;
import io.jkubelet.core.volumemanager.AttachDetach;
import io.jkubelet.core.volumemanager.ManualVolumeManager;
import io.jkubelet.core.volumemanager.VolumePlugins;
import io.jkubelet.deviceplugin.GrpcPluginRegistrationClient;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node with a CSI driver, for the tests that mount volumes through it in the core: a hostpath-style driver
 * ({@link TestCsiDriver}, real gRPC on unix sockets, real bind mounts) registered through {@code plugins_registry} by the
 * plugin watcher, volume managers whose reconciler mounts the pods' volumes through the CSI plugin, and the claims,
 * PersistentVolumes and CSIDriver objects on fabric8's mock apiserver (CRUD mode), which defaults nothing: the CSIDriver
 * is made with the fields the apiserver would default. Closing it unmounts everything mounted under its directory.
 */
final class CsiNode implements AutoCloseable {
    static final String NODE = "node-a";
    static final String DRIVER = "hostpath.csi.k8s.io";
    /** The apiserver's default {@code fsGroupPolicy}. */
    static final String DEFAULT_FS_GROUP_POLICY = "ReadWriteOnceWithFSType";

    final KubernetesClient client;
    final Path dir;
    final PodDirs dirs;
    final CsiDrivers drivers = new CsiDrivers();
    final TestCsiDriver driver;
    final LinuxMounts mounts = new LinuxMounts();
    /** The events the volume managers recorded, as "{@code <reason> <message>}". */
    final List<String> events = new CopyOnWriteArrayList<>();
    /** The same events with the object they are about, as "{@code <kind>/<name> <type> <reason> <message>}". */
    final List<String> objectEvents = new CopyOnWriteArrayList<>();

    private CsiNode(KubernetesClient client, Path dir) throws Exception {
        this.client = client;
        this.dir = dir;
        // createOr: fabric8 sends a POST again when the first answer is slow, which a busy machine can make it.
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(NODE).endMetadata().build())
                .createOr(n -> n.update());
        dirs = new PodDirs(dir.resolve("kubelet"));
        FakeClock watcherClock = new FakeClock();
        PluginManager watcher = new PluginManager(dirs.pluginsRegistrationDir(), new GrpcPluginRegistrationClient(),
                watcherClock, Runnable::run);
        watcher.createDirectory();
        watcher.addHandler(PluginManager.CSI_PLUGIN, new CsiRegistrationHandler(drivers, new GrpcCsiDriverClient(),
                NodeInfoManager.connected(NODE, new Fabric8NodeClient(client), new Fabric8CsiNodes(client), d -> {})));
        Path pluginDir = Files.createDirectories(dir.resolve("kubelet/plugins/" + DRIVER));
        driver = new TestCsiDriver(DRIVER, pluginDir.resolve("csi.sock"),
                dirs.pluginsRegistrationDir().resolve(DRIVER + "-reg.sock"), List.of("1.2.0"), NODE, 0, Map.of(), true);
        // As the plugin manager does, a registration that failed is tried again after its back-off: a cold JVM on a
        // busy machine can miss GetInfo's 1 s deadline.
        await().atMost(Duration.ofMinutes(1)).until(() -> {
            watcher.reconcile();
            watcherClock.advance(Duration.ofMinutes(3));
            return driver.registrationStatus.contains("true:");
        });
        assertThat(driver.registrationStatus).last().isEqualTo("true:");
    }

    /** The node under {@code dir}, its driver registered. */
    static CsiNode withDriver(KubernetesClient client, Path dir) throws Exception {
        return new CsiNode(client, dir);
    }

    ManualVolumeManager volumeManager() {
        return volumeManager(CsiVolumePlugin.CSI_TIMEOUT);
    }

    /**
     * A volume manager whose CSI operations each have {@code csiTimeout} for their calls to the driver, and whose
     * events go to {@link #events}.
     */
    ManualVolumeManager volumeManager(Duration csiTimeout) {
        CsiVolumePlugin csi = new CsiVolumePlugin(dirs, mounts, NODE, drivers, new GrpcCsiDriverClient(),
                new Fabric8CsiObjects(client), csiTimeout);
        LoggingEventRecorder logged = new LoggingEventRecorder(Clock.systemUTC());
        io.jkubelet.core.events.EventRecorder recorder = (involved, type, reason, message) -> {
            events.add(reason + " " + message);
            objectEvents.add(involved.getKind() + "/" + involved.getName() + " " + type + " " + reason + " " + message);
            logged.event(involved, type, reason, message);
        };
        Fabric8NodeClient nodes = new Fabric8NodeClient(client);
        return new ManualVolumeManager(dirs, mounts, VolumePlugins.probe(dirs, mounts,
                new ApiVolumes(PodObjects.standalone(), NODE, List::of, Clock.systemUTC()), csi, recorder),
                new Fabric8ObjectClient(client), new AttachDetach(true, () -> nodes.getNode(NODE)), recorder);
    }

    /**
     * The attach/detach controller's part, which this control plane lacks: the Node's {@code status.volumesAttached}
     * lists the driver's volume {@code handle} as attached at {@code devicePath}.
     */
    void attachedByTheController(String handle, String devicePath) {
        client.nodes().withName(NODE).editStatus(n -> new NodeBuilder(n).editOrNewStatus().addNewVolumesAttached()
                .withName("kubernetes.io/csi/" + DRIVER + "^" + handle).withDevicePath(devicePath).endVolumesAttached()
                .endStatus().build());
    }

    /** The driver's CSIDriver, with the apiserver's default {@code fsGroupPolicy}. */
    void csiDriver(Boolean attachRequired, Boolean podInfoOnMount, String... modes) {
        csiDriver(attachRequired, podInfoOnMount, DEFAULT_FS_GROUP_POLICY, modes);
    }

    /** The driver's CSIDriver that needs no attachment, with {@code fsGroupPolicy} (null for none). */
    void csiDriverWithFsGroupPolicy(String fsGroupPolicy) {
        csiDriver(false, null, fsGroupPolicy, new String[] {"Persistent", "Ephemeral"});
    }

    private void csiDriver(Boolean attachRequired, Boolean podInfoOnMount, String fsGroupPolicy, String[] modes) {
        client.storage().v1().csiDrivers().resource(new CSIDriverBuilder().withNewMetadata().withName(DRIVER).endMetadata()
                .withNewSpec().withAttachRequired(attachRequired).withPodInfoOnMount(podInfoOnMount)
                .withVolumeLifecycleModes(modes).withFsGroupPolicy(fsGroupPolicy).endSpec().build())
                .createOr(c -> c.update());
    }

    /** A claim {@code name} bound to the PersistentVolume {@code pv-<name>} of {@code driver}'s volume {@code handle}. */
    void csiClaim(String name, String driverName, String handle) {
        csiClaim(name, driverName, handle, null, "ReadWriteOnce");
    }

    /** As {@link #csiClaim(String, String, String)}, the volume of {@code fsType} (none when null) and access modes. */
    void csiClaim(String name, String driverName, String handle, String fsType, String... accessModes) {
        createClaim(name, driverName, handle, fsType, null, null, accessModes);
    }

    /**
     * As {@link #csiClaim(String, String, String)}, the PersistentVolume's capacity {@code pvCapacity} and the claim's
     * {@code status.capacity} {@code claimCapacity}, as the PV controller set it at binding; a claim whose volume grew
     * while no pod used it has less, and the resize controller's {@code FileSystemResizePending} condition.
     */
    void csiClaimOfSize(String name, String handle, String pvCapacity, String claimCapacity) {
        createClaim(name, DRIVER, handle, "ext4", pvCapacity, claimCapacity, "ReadWriteOnce");
        if (!pvCapacity.equals(claimCapacity)) {
            resizePending(name);
        }
    }

    /** external-resizer's message on the condition it sets when the driver needs the node to grow the file system. */
    static final String RESIZE_PENDING_MESSAGE = "Waiting for user to (re-)start a pod to finish file system resize of "
            + "volume on node.";

    private void createClaim(String name, String driverName, String handle, String fsType, String pvCapacity,
                             String claimCapacity, String... accessModes) {
        var claim = new PersistentVolumeClaimBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
                .withVolumeName("pv-" + name).endSpec().withNewStatus().withPhase("Bound").endStatus();
        if (claimCapacity != null) {
            claim.editSpec().withNewResources().addToRequests("storage", new Quantity(claimCapacity)).endResources()
                    .endSpec().editStatus().addToCapacity("storage", new Quantity(claimCapacity)).endStatus();
        }
        String uid = client.persistentVolumeClaims().inNamespace("default").resource(claim.build()).create()
                .getMetadata().getUid();
        var pv = new PersistentVolumeBuilder().withNewMetadata().withName("pv-" + name)
                .endMetadata().withNewSpec().withAccessModes(accessModes).withNewClaimRef().withNamespace("default")
                .withName(name).withUid(uid).endClaimRef().withNewCsi().withDriver(driverName)
                .withVolumeHandle(handle).withFsType(fsType).withVolumeAttributes(Map.of("share", handle)).endCsi()
                .endSpec();
        if (pvCapacity != null) {
            pv.editSpec().addToCapacity("storage", new Quantity(pvCapacity)).endSpec();
        }
        client.persistentVolumes().resource(pv.build()).create();
    }

    /**
     * The resize controller's part, which this control plane lacks (no external-resizer): the claim asks for
     * {@code size}, the driver's controller grew the volume ({@code ControllerExpandVolume}), the PersistentVolume's
     * capacity becomes {@code size}, and the claim is left to the node with {@code FileSystemResizePending}.
     */
    void resizeAsTheController(String claim, String size) {
        client.persistentVolumeClaims().inNamespace("default").withName(claim).edit(c ->
                new PersistentVolumeClaimBuilder(c).editSpec().editResources().addToRequests("storage", new Quantity(size))
                        .endResources().endSpec().build());
        client.persistentVolumes().withName("pv-" + claim).edit(pv -> new PersistentVolumeBuilder(pv).editSpec()
                .addToCapacity("storage", new Quantity(size)).endSpec().build());
        resizePending(claim);
    }

    /** The condition the resize controller leaves on a claim whose volume the node is to grow. */
    private void resizePending(String claim) {
        client.persistentVolumeClaims().inNamespace("default").withName(claim).editStatus(c ->
                new PersistentVolumeClaimBuilder(c).editStatus().addNewCondition().withType("FileSystemResizePending")
                        .withStatus("True").withMessage(RESIZE_PENDING_MESSAGE).endCondition().endStatus().build());
    }

    /**
     * A claim {@code name} bound to the PersistentVolume {@code pv-<name>} in {@code volumeMode: Block} of the driver's
     * volume {@code handle}.
     */
    void csiBlockClaim(String name, String handle) {
        String uid = client.persistentVolumeClaims().inNamespace("default").resource(new PersistentVolumeClaimBuilder()
                .withNewMetadata().withName(name).endMetadata().withNewSpec().withVolumeMode("Block")
                .withVolumeName("pv-" + name).endSpec().withNewStatus().withPhase("Bound").endStatus().build()).create()
                .getMetadata().getUid();
        client.persistentVolumes().resource(new PersistentVolumeBuilder().withNewMetadata().withName("pv-" + name)
                .endMetadata().withNewSpec().withVolumeMode("Block").withAccessModes("ReadWriteOnce").withNewClaimRef()
                .withNamespace("default").withName(name).withUid(uid).endClaimRef().withNewCsi().withDriver(DRIVER)
                .withVolumeHandle(handle).withVolumeAttributes(Map.of("share", handle)).endCsi().endSpec().build())
                .create();
    }

    /** A pod whose container takes the claim {@code claim} as the device {@code /dev/xvda}. */
    static Pod devicePod(String uid, String claim, boolean readOnly) {
        return new PodBuilder().withNewMetadata().withName("pod-" + uid).withNamespace("default").withUid(uid).endMetadata()
                .withNewSpec().withServiceAccountName("sa-" + uid).withContainers(new ContainerBuilder().withName("app")
                        .withImage("busybox").addNewVolumeDevice().withName("data").withDevicePath("/dev/xvda")
                        .endVolumeDevice().build())
                .addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName(claim).withReadOnly(readOnly)
                .endPersistentVolumeClaim().endVolume().endSpec().build();
    }

    /** A pod whose container mounts each volume at {@code /<name>}. */
    static Pod pod(String uid, Volume... volumes) {
        ContainerBuilder app = new ContainerBuilder().withName("app").withImage("busybox");
        for (Volume v : volumes) {
            app.addNewVolumeMount().withName(v.getName()).withMountPath("/" + v.getName()).endVolumeMount();
        }
        return new PodBuilder().withNewMetadata().withName("pod-" + uid).withNamespace("default").withUid(uid).endMetadata()
                .withNewSpec().withServiceAccountName("sa-" + uid).withContainers(app.build())
                .withVolumes(volumes).endSpec().build();
    }

    static Pod claimingPod(String uid, String claim) {
        return pod(uid, new VolumeBuilder().withName("data").withNewPersistentVolumeClaim().withClaimName(claim)
                .endPersistentVolumeClaim().build());
    }

    Path volumeDir(String uid, String name) {
        return dir.resolve("kubelet/pods/" + uid + "/volumes/kubernetes.io~csi/" + name);
    }

    /**
     * The driver stops; the loop devices on files under the node's directory are detached and everything mounted
     * under it goes before JUnit removes it.
     */
    @Override
    public void close() throws Exception {
        // The loop devices on block volumes' map files hold their bind mounts: they go first.
        LoopDevices.detachUnder(dir);
        driver.close();
        MountsUnder.unmountAll(dir, mounts);
    }
}
