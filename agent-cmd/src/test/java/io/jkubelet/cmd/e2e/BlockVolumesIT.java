package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Event;
import io.jkubelet.core.volume.util.LoopDevices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Raw block volumes through the real control plane and the real kubectl, jkubelet as the node (as
 * {@link PersistentVolumesIT} does for file systems): a {@code local} PersistentVolume in {@code volumeMode: Block} on a
 * loop device the test makes (a 16 MiB file), bound in advance to a Block claim by kube-controller-manager's PV
 * controller; the pod's container gets it at its {@code devicePath} and what it writes there is on the file behind the
 * loop device; the agent's restart leaves it mapped; deleting the pod unmaps it and removes the pod's directory. A
 * Block claim in {@code volumeMounts} waits with upstream's message.
 */
class BlockVolumesIT extends RealClusterBase {
    private static final List<String[]> made = new ArrayList<>();
    private static String device;
    private static Path image;

    @BeforeAll
    static void aLoopDevice() throws Exception {
        assumeTrue(LoopDevices.available(), "loop devices need root, /dev/loop-control and losetup");
        image = Files.createDirectories(dir.resolve("disks")).resolve("block.img");
        device = LoopDevices.attach(image, 16L << 20);
    }

    @AfterAll
    static void removeWhatWasMade() {
        for (String[] m : made.reversed()) {
            kubectl.run("delete", m[0], m[1], "--wait=false", "--ignore-not-found");
        }
        made.clear();
        // The test's loop device, and any the agent left on a pod's map file (a test that failed half-way).
        LoopDevices.detachUnder(dir);
    }

    private static void apply(String kind, String name, String yaml) {
        kubectl.runWithInput(yaml, "create", "-f", "-").ok();
        made.add(new String[] {kind, name});
    }

    /** A Block claim {@code claim} bound to a local Block PersistentVolume {@code pv} on the loop device. */
    private static void blockClaim(String claim, String pv) {
        apply("pvc", claim, """
                apiVersion: v1
                kind: PersistentVolumeClaim
                metadata: {name: %s, namespace: default}
                spec:
                  storageClassName: ""
                  volumeMode: Block
                  accessModes: [ReadWriteOnce]
                  resources: {requests: {storage: 1Mi}}
                """.formatted(claim));
        apply("pv", pv, """
                apiVersion: v1
                kind: PersistentVolume
                metadata: {name: %s}
                spec:
                  storageClassName: ""
                  volumeMode: Block
                  capacity: {storage: 1Mi}
                  accessModes: [ReadWriteOnce]
                  claimRef: {namespace: default, name: %s}
                  local: {path: %s}
                  nodeAffinity:
                    required:
                      nodeSelectorTerms:
                      - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [%s]}]
                """.formatted(pv, claim, device, agent.nodeName));
        await("claim " + claim + " Bound").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() ->
                kubectl.run("get", "pvc", claim, "-o", "jsonpath={.status.phase}").out().equals("Bound"));
    }

    /** A pod on this node whose container takes the claim as {@code /dev/xvda} ({@code use}: volumeDevices or volumeMounts). */
    private static void pod(String name, String claim, String use, String script) {
        String entry = use.equals("volumeDevices") ? "{name: disk, devicePath: /dev/xvda}" : "{name: disk, mountPath: /disk}";
        apply("pod", name, """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: default}
                spec:
                  nodeName: %s
                  terminationGracePeriodSeconds: 2
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sh", "-c", %s]
                    %s: [%s]
                  volumes:
                  - {name: disk, persistentVolumeClaim: {claimName: %s}}
                """.formatted(name, agent.nodeName, IMAGE, quote(script), use, entry, claim));
    }

    private static String head(int n) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "r")) {
            byte[] b = new byte[n];
            f.readFully(b);
            return new String(b, StandardCharsets.UTF_8);
        }
    }

    @Test
    void aLocalBlockVolumeIsTheContainersDeviceSurvivesTheAgentsRestartAndIsUnmappedWithThePod() throws Exception {
        blockClaim("blk-data", "blk-local");
        pod("blk-db", "blk-data", "volumeDevices", "sleep 3600");
        awaitRunning("blk-db");
        String uid = pod("blk-db").getMetadata().getUid();

        assertThat(exec("blk-db", "[ -b /dev/xvda ] && echo block device")).isEqualTo("block device\n");
        exec("blk-db", "printf written-in-the-pod | dd of=/dev/xvda conv=notrunc 2>/dev/null; sync");
        await().atMost(Duration.ofSeconds(10)).until(() -> head(18).equals("written-in-the-pod"));
        Path link = dir.resolve("root/pods/" + uid + "/volumeDevices/kubernetes.io~local-volume/blk-local");
        assertThat(Files.readSymbolicLink(link)).isEqualTo(Path.of(device));
        Path globalMapPath = dir.resolve("root/plugins/kubernetes.io~local-volume/volumeDevices/blk-local");
        List<String> holding = LoopDevices.backedUnder(globalMapPath);
        assertThat(holding).hasSize(1);

        agent.stop();
        int logBefore = agent.logText().length();
        agent.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> agent.logText().substring(logBefore)
                .contains("Finished populating initial desired state"));
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10)).until(() ->
                LoopDevices.backedUnder(globalMapPath).equals(holding) && Files.isSymbolicLink(link));
        assertThat(exec("blk-db", "head -c 18 /dev/xvda")).isEqualTo("written-in-the-pod");
        assertThat(pod("blk-db").getStatus().getContainerStatuses().getFirst().getRestartCount()).isZero();

        kubectl.run("delete", "pod", "blk-db", "--timeout=90s").ok();
        await().atMost(Duration.ofSeconds(30)).until(() -> !Files.exists(dir.resolve("root/pods/" + uid)));
        await().atMost(Duration.ofSeconds(30)).until(() -> !Files.exists(globalMapPath));
        assertThat(LoopDevices.backedUnder(globalMapPath)).isEmpty();
        assertThat(head(18)).isEqualTo("written-in-the-pod");
    }

    @Test
    void aBlockClaimMountedAsAFileSystemWaitsWithUpstreamsMessage() {
        blockClaim("blk-misused", "blk-local-misused");
        pod("blk-fs", "blk-misused", "volumeMounts", "sleep 3600");
        String expected = "Unable to attach or mount volumes: unmounted volumes=[disk], unattached volumes=[], failed to "
                + "process volumes=[disk]: volume disk has volumeMode Block, but is specified in volumeMounts";
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                assertThat(events("default", "blk-fs")).extracting(Event::getReason, Event::getMessage)
                        .contains(org.assertj.core.groups.Tuple.tuple("FailedMount", expected)));
        assertThat(phase("blk-fs")).isEqualTo("Pending");
        kubectl.run("delete", "pod", "blk-fs", "--timeout=90s").ok();
    }
}
