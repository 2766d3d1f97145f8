package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.storage.CSIDriverBuilder;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSINodeDriver;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachmentStatusBuilder;
import io.jkubelet.csi.TestCsiDriver;
import io.jkubelet.csi.v1.CsiApi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A CSI driver as a real cluster deploys one, the node of the real control plane being the upstream kubelet v1.20.2
 * (dockershim) first, then jkubelet on Docker and on containerd, through the same story: the driver's registrar puts
 * its socket in {@code <root-dir>/plugins_registry}; the kubelet registers it (the node's
 * {@code csi.volume.kubernetes.io/nodeid} annotation and topology label, the {@code CSINode}); a pod on a
 * PersistentVolumeClaim bound to the driver's volume is staged and published into, writes a file, is deleted (the
 * volume unpublished and unstaged before the pod object goes); a second pod on the same claim reads what the first
 * wrote. While the first pod runs, the volume grows (the test plays the external resizer) and the kubelet expands it on
 * the node (NodeExpandVolume) and records the claim's new capacity. An inline ephemeral volume is published for a
 * pod, and the driver restarts under that pod. The driver is {@link TestCsiDriver}, a hostpath-style node plugin on the CSI spec's own gRPC services; with
 * no external attacher here its {@code CSIDriver} says {@code attachRequired: false}, and the test makes the
 * PersistentVolume as a provisioner would. A second story runs the same driver under a name whose {@code CSIDriver}
 * requires attachment, the test playing the external attacher beside the real attach/detach controller. The upstream kubelet's run shows the driver and the test follow the
 * protocol, not jkubelet's reading of it.
 *
 * <p>Where v1.20 and v1.30 differ, jkubelet follows v1.30: the staging path is
 * {@code plugins/kubernetes.io/csi/<driver>/<sha256 of the volume handle>/globalmount} (v1.20:
 * {@code plugins/kubernetes.io/csi/pv/<pv name>/globalmount}).
 */
@Tag("docker")
@Tag("containerd")
@Tag("control-plane")
class CsiDriverIT extends ClusterNodesTestBase {
    static final String DRIVER = "hostpath.csi.jkubelet.test";
    static final String TOPOLOGY_KEY = "topology.hostpath.csi.jkubelet.test/node";
    /** The same test driver under another name, whose CSIDriver requires attachment. */
    static final String ATTACHED_DRIVER = "attached.csi.jkubelet.test";

    /**
     * No external attacher runs here: the kubelet must not wait for a VolumeAttachment. The pod's name, namespace,
     * UID and service account go to NodePublishVolume.
     */
    @BeforeAll
    static void theCsiDriverObject() {
        client.storage().v1().csiDrivers().resource(new CSIDriverBuilder().withNewMetadata().withName(DRIVER)
                .endMetadata().withNewSpec().withAttachRequired(false).withPodInfoOnMount(true)
                .withVolumeLifecycleModes("Persistent", "Ephemeral").endSpec().build()).createOr(c -> c.update());
        client.storage().v1().csiDrivers().resource(new CSIDriverBuilder().withNewMetadata().withName(ATTACHED_DRIVER)
                .endMetadata().withNewSpec().withAttachRequired(true).endSpec().build()).createOr(c -> c.update());
    }

    @AfterAll
    static void deleteTheCsiDriverObject() {
        if (client != null) {
            client.storage().v1().csiDrivers().withName(DRIVER).delete();
            client.storage().v1().csiDrivers().withName(ATTACHED_DRIVER).delete();
        }
    }

    /**
     * What a kubelet showed (its node's name written as such): its CSINode entry and node annotation and label, what
     * the pods wrote and read back, the publish call (the target path with the root directory and pod UID written as
     * such, the pod information in the volume context, the access mode), and the teardown calls in order.
     */
    record Seen(String csiNode, String nodeIdAnnotation, String topologyLabel, String registration, String written,
                String readBack, String targetPath, TreeSet<String> volumeContextKeys, String accessMode,
                boolean stagedBeforePublish, List<String> teardowns, Expansion expansion, Inline inline,
                Restart restart) {}

    /**
     * The claim grown while its pod runs (the test plays the external resizer: the PersistentVolume's capacity goes to
     * 2Gi): the NodeExpandVolume call (volume path, staging path, required bytes), the claim's capacity afterwards, and
     * whether the pod got a {@code FileSystemResizeSuccessful} event.
     */
    record Expansion(String call, String claimCapacity, boolean podEvent) {}

    /**
     * An inline ephemeral volume: whether its volume ID is upstream's {@code csi-<sha256(pod UID + volume name)>}, its
     * target path, its volume context (the pod's information, {@code csi.storage.k8s.io/ephemeral} and the pod's
     * attributes), whether it was published without staging, what the pod wrote, and its teardown.
     */
    record Inline(boolean volumeIdOfThePod, String targetPath, Map<String, String> volumeContext, boolean unstaged,
                  String written, List<String> teardowns) {}

    /**
     * The driver restarting under a running pod: whether its registration's going took its CSINode entry, its
     * registration again, and whether its entry came back.
     */
    record Restart(boolean entryGoneWithTheDriver, String registrationAgain, String entryAgain) {}

    /** Each node's directory is short: the registration socket's path below it has at most 107 bytes. */
    @Test
    void aClaimOnACsiDriverAsOnTheUpstreamKubelet() throws Exception {
        Seen upstream = story(ClusterKubelet.upstreamOnDocker(cluster, dir.resolve("up"), "csi-up-" + suffix()), "up");
        Seen docker = story(ClusterKubelet.onDocker(cluster, dir.resolve("jk"), "csi-jk-" + suffix()), "jk");
        Seen containerd = story(ClusterKubelet.onContainerd(cluster, dir.resolve("jkc"), "csi-jkc-" + suffix()), "jkc");

        System.out.println("upstream kubelet v1.20.2 on Docker: " + upstream);
        System.out.println("jkubelet on Docker:     " + docker);
        System.out.println("jkubelet on containerd: " + containerd);
        assertThat(upstream.csiNode()).isEqualTo(DRIVER + " id-<node> [" + TOPOLOGY_KEY + "] 8");
        assertThat(upstream.nodeIdAnnotation()).isEqualTo("{\"" + DRIVER + "\":\"id-<node>\"}");
        assertThat(upstream.topologyLabel()).isEqualTo("<node>");
        assertThat(upstream.registration()).isEqualTo("true:");
        assertThat(upstream.written()).isEqualTo("written by the first pod");
        assertThat(upstream.readBack()).isEqualTo(upstream.written());
        assertThat(upstream.targetPath()).isEqualTo("<root>/pods/<uid>/volumes/kubernetes.io~csi/<pv>/mount");
        assertThat(upstream.volumeContextKeys()).contains("csi.storage.k8s.io/pod.name",
                "csi.storage.k8s.io/pod.namespace", "csi.storage.k8s.io/pod.uid",
                "csi.storage.k8s.io/serviceAccount.name");
        assertThat(upstream.teardowns()).containsExactly("NodeUnpublishVolume <target>", "NodeUnstageVolume <staging>");
        assertThat(upstream.expansion()).isEqualTo(new Expansion("<handle> <target> <staging> 2147483648", "2Gi", true));
        assertThat(upstream.inline().volumeIdOfThePod()).isTrue();
        assertThat(upstream.inline().targetPath()).isEqualTo("<root>/pods/<uid>/volumes/kubernetes.io~csi/data/mount");
        assertThat(upstream.inline().volumeContext()).containsEntry("csi.storage.k8s.io/ephemeral", "true")
                .containsEntry("csi.storage.k8s.io/pod.name", "<pod>").containsEntry("size", "small");
        assertThat(upstream.inline().unstaged()).isTrue();
        assertThat(upstream.inline().written()).isEqualTo("written inline");
        assertThat(upstream.inline().teardowns()).containsExactly("NodeUnpublishVolume <target>");
        assertThat(upstream.restart()).isEqualTo(new Restart(true, "true:", DRIVER + " id-<node> [" + TOPOLOGY_KEY + "] 8"));
        assertThat(docker).isEqualTo(upstream);
        assertThat(containerd).isEqualTo(upstream);
    }

    /**
     * A volume whose driver requires attachment, as the kubelet, the attach/detach controller of the real
     * kube-controller-manager and an external attacher (the test: it marks the controller's VolumeAttachment attached,
     * with a device path in its metadata) share it: whether the node's {@code status.volumesInUse} listed the volume
     * before it was attached, and whether the driver was staged before it was; the node's {@code volumesAttached} entry
     * once attached (the unique name, the device path), the publish context the stage got, what the pod wrote; after the
     * pod's deletion whether the controller detached the volume (its VolumeAttachment gone) and the node's
     * {@code volumesInUse}.
     */
    record Attach(boolean inUseBeforeAttached, boolean stagedBeforeAttached, String volumesAttached,
                  Map<String, String> publishContext, String written, boolean detached, List<String> inUseAfter) {}

    /**
     * The controller attaches a volume only once the kubelet reports it in use, and the kubelet mounts it only once the
     * Node's status lists it attached (upstream's VerifyControllerAttachedVolume); the controller detaches it only once
     * the kubelet no longer reports it. Docker only: the runtime plays no part in it.
     */
    @Test
    void anAttachableVolumeWaitsForTheAttachDetachControllerAsOnTheUpstreamKubelet() throws Exception {
        Attach upstream = attachStory(ClusterKubelet.upstreamOnDocker(cluster, dir.resolve("aup"), "att-up-" + suffix()), "aup");
        Attach docker = attachStory(ClusterKubelet.onDocker(cluster, dir.resolve("ajk"), "att-jk-" + suffix()), "ajk");

        System.out.println("upstream kubelet v1.20.2 on Docker: " + upstream);
        System.out.println("jkubelet on Docker:     " + docker);
        assertThat(upstream).isEqualTo(new Attach(true, false,
                "kubernetes.io/csi/" + ATTACHED_DRIVER + "^<handle> devicePath=", Map.of("devicePath", "/dev/jk-attached"),
                "written after the attach", true, List.of()));
        assertThat(docker).isEqualTo(upstream);
    }

    private Attach attachStory(ClusterKubelet kubelet, String prefix) throws Exception {
        String node = kubelet.node();
        String pv = "csi-apv-" + prefix + "-" + suffix();
        String claim = "csi-aclaim-" + prefix;
        String handle = "volume-" + prefix;
        String pod = "attached-" + prefix;
        String uniqueName = "kubernetes.io/csi/" + ATTACHED_DRIVER + "^" + handle;
        TestCsiDriver driver = null;
        try {
            kubelet.start();
            kubelet.awaitReady(client);
            driver = registeredDriver(kubelet, ATTACHED_DRIVER, Map.of());
            driver.stageUnstage = true;
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> csiNode(node, ATTACHED_DRIVER) != null);

            persistentVolume(pv, claim, ATTACHED_DRIVER, handle);
            podOnClaim(node, pod, claim, "echo -n 'written after the attach' > /data/file && sleep 3600");
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> attachment(pv) != null);
            boolean inUse = within(Duration.ofSeconds(45), () -> volumesInUse(node).contains(uniqueName));
            boolean staged = !driver.stages.isEmpty();

            // The external attacher's part.
            VolumeAttachment va = attachment(pv);
            va.setStatus(new VolumeAttachmentStatusBuilder().withAttached(true)
                    .withAttachmentMetadata(Map.of("devicePath", "/dev/jk-attached")).build());
            client.storage().v1().volumeAttachments().resource(va).updateStatus();
            awaitPhase(pod, "Running");
            String attached = client.nodes().withName(node).get().getStatus().getVolumesAttached().stream()
                    .map(v -> v.getName().replace(handle, "<handle>") + " devicePath=" + v.getDevicePath())
                    .collect(java.util.stream.Collectors.joining(", "));
            Map<String, String> publishContext = driver.stages.getFirst().getPublishContextMap();
            String written = Files.readString(driver.volumeDir(handle).resolve("file"));

            client.pods().inNamespace("default").withName(pod).withGracePeriod(1).delete();
            awaitGone(pod);
            boolean detached = within(Duration.ofSeconds(90), () -> attachment(pv) == null);
            return new Attach(inUse, staged, attached, publishContext, written, detached, volumesInUse(node));
        } finally {
            removeAll(kubelet, driver, List.of(pod), claim, pv);
        }
    }

    /**
     * The test driver {@code name} started on the kubelet's node as a plugin pod would run it: its endpoint in the node's
     * directory, its registrar's socket in {@code <root-dir>/plugins_registry}, node ID {@code id-<node>}, 8 volumes.
     */
    private static TestCsiDriver registeredDriver(ClusterKubelet kubelet, String name, Map<String, String> topology)
            throws Exception {
        Path pluginDir = Files.createDirectories(kubelet.dir().resolve("csi-plugin"));
        return new TestCsiDriver(name, pluginDir.resolve("csi.sock"),
                kubelet.root().resolve("plugins_registry/" + name + "-reg.sock"), List.of("1.0.0"),
                "id-" + kubelet.node(), 8, topology, true);
    }

    /** Whatever a story made: its pods, claim and volume, the kubelet and its containers, the driver, the node. */
    private static void removeAll(ClusterKubelet kubelet, TestCsiDriver driver, List<String> pods, String claim,
                                  String pv) throws Exception {
        for (String pod : pods) {
            client.pods().inNamespace("default").withName(pod).withGracePeriod(0).delete();
        }
        client.persistentVolumeClaims().inNamespace("default").withName(claim).delete();
        client.persistentVolumes().withName(pv).delete();
        kubelet.close();
        if (driver != null) {
            driver.close();
        }
        kubectl.run("delete", "node", kubelet.node(), "--wait=false");
        kubectl.run("delete", "csinode", kubelet.node(), "--wait=false");
    }

    /** The attach/detach controller's VolumeAttachment of the PersistentVolume {@code pv}, or null. */
    private static VolumeAttachment attachment(String pv) {
        return client.storage().v1().volumeAttachments().list().getItems().stream()
                .filter(a -> pv.equals(a.getSpec().getSource().getPersistentVolumeName())).findFirst().orElse(null);
    }

    private static List<String> volumesInUse(String node) {
        Node n = client.nodes().withName(node).get();
        return n.getStatus().getVolumesInUse() == null ? List.of() : n.getStatus().getVolumesInUse();
    }

    /** Whether {@code condition} holds within {@code limit}. */
    private static boolean within(Duration limit, java.util.concurrent.Callable<Boolean> condition) {
        try {
            await().atMost(limit).pollInterval(Duration.ofSeconds(1)).until(condition);
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return false;
        }
    }

    /** The story on one kubelet; it leaves no pod, claim, volume, node, driver or container behind. */
    private Seen story(ClusterKubelet kubelet, String prefix) throws Exception {
        String node = kubelet.node();
        String pv = "csi-pv-" + prefix + "-" + suffix();
        String claim = "csi-claim-" + prefix;
        String handle = "volume-" + prefix;
        TestCsiDriver driver = null;
        try {
            kubelet.start();
            kubelet.awaitReady(client);
            driver = registeredDriver(kubelet, DRIVER, Map.of(TOPOLOGY_KEY, node));
            driver.stageUnstage = true;
            driver.expandVolume = true;
            String csiNode = awaitCsiNode(node);
            Node n = client.nodes().withName(node).get();

            persistentVolume(pv, claim, handle);
            podOnClaim(node, "writer-" + prefix, claim, "echo -n 'written by the first pod' > /data/file && sleep 3600");
            awaitPhase("writer-" + prefix, "Running");
            String written = Files.readString(driver.volumeDir(handle).resolve("file"));
            CsiApi.NodePublishVolumeRequest publish = driver.publishes.getLast();
            String uid = client.pods().inNamespace("default").withName("writer-" + prefix).get().getMetadata().getUid();
            String target = publish.getTargetPath().replace(kubelet.root().toString(), "<root>").replace(uid, "<uid>")
                    .replace(pv, "<pv>");
            String staging = publish.getStagingTargetPath();
            boolean stagedFirst = driver.stages.size() == 1 && driver.stages.getFirst().getStagingTargetPath().equals(staging);

            // The resizer grew the volume: the kubelet expands it on the node at the pod's next sync, which a change of
            // the pod brings sooner than the periodic one.
            kubectl.run("patch", "pv", pv, "-p", "{\"spec\":{\"capacity\":{\"storage\":\"2Gi\"}}}").ok();
            kubectl.run("annotate", "pod", "writer-" + prefix, "resized=2Gi").ok();
            TestCsiDriver expanding = driver;
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() ->
                    !expanding.expansions.isEmpty() && "2Gi".equals(claimCapacity(claim)));
            CsiApi.NodeExpandVolumeRequest expand = driver.expansions.getFirst();
            Expansion expansion = new Expansion(String.join(" ", expand.getVolumeId().replace(handle, "<handle>"),
                    expand.getVolumePath().replace(publish.getTargetPath(), "<target>"),
                    expand.getStagingTargetPath().replace(staging, "<staging>"),
                    Long.toString(expand.getCapacityRange().getRequiredBytes())), claimCapacity(claim),
                    podEvent(uid, "FileSystemResizeSuccessful"));

            // The pod goes: its volume is unpublished, and then, no other pod using it, unstaged.
            client.pods().inNamespace("default").withName("writer-" + prefix).withGracePeriod(1).delete();
            awaitGone("writer-" + prefix);
            TestCsiDriver d = driver;
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> d.teardowns.size() >= 2);
            List<String> teardowns = driver.teardowns.stream().map(t -> t.replace(publish.getTargetPath(), "<target>")
                    .replace(staging, "<staging>").replace(" " + handle + " ", " ")).toList();

            // A second pod on the claim reads what the first wrote.
            podOnClaim(node, "reader-" + prefix, claim, "cp /data/file /data/read-back");
            awaitPhase("reader-" + prefix, "Succeeded");
            String readBack = Files.readString(driver.volumeDir(handle).resolve("read-back"));
            client.pods().inNamespace("default").withName("reader-" + prefix).withGracePeriod(1).delete();
            awaitGone("reader-" + prefix);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> d.teardowns.size() >= 4);

            // An inline ephemeral volume, published while the driver runs; the driver restarts under the pod (its
            // registrar's socket goes and comes back, as a restarted plugin pod's does); the pod's deletion then reaches
            // the new driver.
            String inlinePod = "inline-" + prefix;
            podOnInlineVolume(node, inlinePod, "echo -n 'written inline' > /data/file && sleep 3600");
            awaitPhase(inlinePod, "Running");
            CsiApi.NodePublishVolumeRequest inline = driver.publishes.getLast();
            String inlineUid = client.pods().inNamespace("default").withName(inlinePod).get().getMetadata().getUid();
            String inlineWritten = Files.readString(driver.volumeDir(inline.getVolumeId()).resolve("file"));

            driver.close();
            Files.deleteIfExists(driver.registrationSocket);
            boolean entryGone = awaitCsiNodeEntryGone(node);
            driver = registeredDriver(kubelet, DRIVER, Map.of(TOPOLOGY_KEY, node));
            driver.stageUnstage = true;
            TestCsiDriver again = driver;
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> !again.registrationStatus.isEmpty());
            Restart restart = new Restart(entryGone, again.registrationStatus.getLast(),
                    awaitCsiNode(node).replace(node, "<node>"));

            client.pods().inNamespace("default").withName(inlinePod).withGracePeriod(1).delete();
            awaitGone(inlinePod);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> !again.teardowns.isEmpty());
            Inline inlineSeen = new Inline(inline.getVolumeId().equals("csi-" + sha256(inlineUid + "data")),
                    inline.getTargetPath().replace(kubelet.root().toString(), "<root>").replace(inlineUid, "<uid>"),
                    new java.util.TreeMap<>(inline.getVolumeContextMap()).entrySet().stream().collect(
                            java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> e.getValue()
                                    .replace(inlineUid, "<uid>").replace(inlinePod, "<pod>"),
                                    (a, b) -> a, java.util.TreeMap::new)),
                    inline.getStagingTargetPath().isEmpty(), inlineWritten,
                    again.teardowns.stream().map(t -> t.replace(inline.getTargetPath(), "<target>")
                            .replace(" " + inline.getVolumeId() + " ", " ")).toList());

            return new Seen(csiNode.replace(node, "<node>"),
                    n.getMetadata().getAnnotations().get("csi.volume.kubernetes.io/nodeid").replace(node, "<node>"),
                    n.getMetadata().getLabels().get(TOPOLOGY_KEY).replace(node, "<node>"),
                    driver.registrationStatus.getLast(), written,
                    readBack, target, new TreeSet<>(publish.getVolumeContextMap().keySet()),
                    publish.getVolumeCapability().getAccessMode().getMode().name(), stagedFirst, teardowns, expansion,
                    inlineSeen, restart);
        } finally {
            removeAll(kubelet, driver, List.of("writer-" + prefix, "reader-" + prefix, "inline-" + prefix), claim, pv);
        }
    }

    private static String claimCapacity(String claim) {
        var c = client.persistentVolumeClaims().inNamespace("default").withName(claim).get();
        return c == null || c.getStatus() == null || c.getStatus().getCapacity() == null ? null
                : c.getStatus().getCapacity().get("storage").toString();
    }

    /** Whether the pod of UID {@code uid} has an event of {@code reason} (they reach the apiserver asynchronously). */
    private static boolean podEvent(String uid, String reason) {
        return within(Duration.ofSeconds(20), () -> client.v1().events().inNamespace("default").list().getItems()
                .stream().anyMatch(e -> uid.equals(e.getInvolvedObject().getUid()) && reason.equals(e.getReason())));
    }

    /** Whether the node's CSINode entry for the driver goes within a minute (after the driver's registration went). */
    private static boolean awaitCsiNodeEntryGone(String node) {
        return within(Duration.ofSeconds(60), () -> csiNode(node) == null);
    }

    private static String sha256(String s) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    /** The node's CSINode entry for the driver, as "name nodeID topologyKeys allocatable". */
    private static String awaitCsiNode(String node) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> csiNode(node) != null);
        return csiNode(node);
    }

    private static String csiNode(String node) {
        return csiNode(node, DRIVER);
    }

    private static String csiNode(String node, String driver) {
        CSINode c = client.storage().v1().csiNodes().withName(node).get();
        if (c == null || c.getSpec() == null || c.getSpec().getDrivers() == null) {
            return null;
        }
        for (CSINodeDriver d : c.getSpec().getDrivers()) {
            if (d.getName().equals(driver)) {
                return d.getName() + " " + d.getNodeID() + " " + d.getTopologyKeys() + " "
                        + (d.getAllocatable() == null ? null : d.getAllocatable().getCount());
            }
        }
        return null;
    }

    /** The PersistentVolume of the driver's volume {@code handle}, pre-bound to {@code claim}, and the claim. */
    private static void persistentVolume(String pv, String claim, String handle) {
        persistentVolume(pv, claim, DRIVER, handle);
    }

    private static void persistentVolume(String pv, String claim, String driver, String handle) {
        kubectl.runWithInput("""
                apiVersion: v1
                kind: PersistentVolume
                metadata: {name: %s}
                spec:
                  capacity: {storage: 1Gi}
                  accessModes: [ReadWriteOnce]
                  persistentVolumeReclaimPolicy: Retain
                  storageClassName: csi-test
                  claimRef: {namespace: default, name: %s}
                  csi: {driver: %s, volumeHandle: %s}
                ---
                apiVersion: v1
                kind: PersistentVolumeClaim
                metadata: {name: %s, namespace: default}
                spec:
                  storageClassName: csi-test
                  volumeName: %s
                  accessModes: [ReadWriteOnce]
                  resources: {requests: {storage: 1Gi}}
                """.formatted(pv, claim, driver, handle, claim, pv), "create", "-f", "-").ok();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> "Bound".equals(
                client.persistentVolumeClaims().inNamespace("default").withName(claim).get().getStatus().getPhase()));
    }

    private static void podOnClaim(String node, String name, String claim, String script) {
        pod(node, name, script, "persistentVolumeClaim: {claimName: %s}".formatted(claim));
    }

    /** A pod with an inline ephemeral volume of the driver, with one attribute of its own. */
    private static void podOnInlineVolume(String node, String name, String script) {
        pod(node, name, script, "csi: {driver: %s, volumeAttributes: {size: small}}".formatted(DRIVER));
    }

    /** A pod on {@code node} running {@code script} with one volume, {@code data} at /data, of the given source. */
    private static void pod(String node, String name, String script, String volumeSource) {
        kubectl.runWithInput("""
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: default}
                spec:
                  nodeName: %s
                  restartPolicy: Never
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sh", "-c", "%s"]
                    volumeMounts: [{name: data, mountPath: /data}]
                  volumes:
                  - name: data
                    %s
                """.formatted(name, node, AgentTestBase.IMAGE, script.replace("\"", "\\\""), volumeSource),
                "create", "-f", "-").ok();
    }

    private static void awaitPhase(String name, String phase) {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            Pod p = client.pods().inNamespace("default").withName(name).get();
            if (p != null && p.getStatus() != null && "Failed".equals(p.getStatus().getPhase()) && !"Failed".equals(phase)) {
                throw new IllegalStateException(name + " failed: " + p.getStatus());
            }
            return p != null && p.getStatus() != null && phase.equals(p.getStatus().getPhase());
        });
    }

    private static void awaitGone(String name) {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                .until(() -> client.pods().inNamespace("default").withName(name).get() == null);
    }

    private static String suffix() {
        return UUID.randomUUID().toString().substring(0, 6);
    }
}
