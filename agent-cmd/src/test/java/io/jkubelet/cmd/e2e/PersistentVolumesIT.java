package io.jkubelet.cmd.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Event;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * PersistentVolumeClaims through the real control plane and the real kubectl, jkubelet as the node: the test makes the
 * PersistentVolumes itself (there is no provisioner here) and kube-controller-manager's PV controller binds the claims
 * to them. A StatefulSet-style pod finds what it wrote after it is deleted and made again; two pods share a
 * ReadWriteMany volume; a pod waits with upstream's FailedMount while its claim is unbound (other pods run meanwhile)
 * and starts once it binds, or while its claim is missing; a claim's {@code readOnly} makes its mounts read-only,
 * {@code subPath} too; a deleted pod's mounts and directory go; restarting the agent unmounts nothing; the claim's usage shows in /stats/summary and
 * /metrics. Local and hostPath PersistentVolumes. NFS is not tested end to end here: this machine's kernel has neither
 * the NFS client nor the server ({@code /proc/filesystems} lists neither {@code nfs} nor {@code nfsd}); the unit tests
 * check the mount command and the kernel's refusal.
 */
class PersistentVolumesIT extends RealClusterBase {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** What this class made in the shared cluster: PersistentVolumes are cluster-wide. */
    private static final List<String[]> made = new ArrayList<>();

    /** Names of what a class makes in the shared cluster start with this (a subclass runs the same tests elsewhere). */
    String prefix() {
        return "pv-dock-";
    }

    @AfterAll
    static void removeWhatWasMade() {
        for (String[] m : made.reversed()) {
            kubectl.run("delete", m[0], m[1], "--wait=false", "--ignore-not-found");
        }
        made.clear();
    }

    private void apply(String kind, String name, String yaml) {
        kubectl.runWithInput(yaml, "create", "-f", "-").ok();
        made.add(new String[] {kind, name});
    }

    /** A claim of 1Mi with no storage class (so that no provisioner is waited for), {@code mode} access. */
    private void claim(String name, String mode) {
        apply("pvc", name, """
                apiVersion: v1
                kind: PersistentVolumeClaim
                metadata: {name: %s, namespace: default}
                spec:
                  storageClassName: ""
                  accessModes: [%s]
                  resources: {requests: {storage: 1Mi}}
                """.formatted(name, mode));
    }

    /** A local PersistentVolume on {@code path}, for this node only, bound in advance to claim {@code claim}. */
    private void localVolume(String name, Path path, String claim) {
        apply("pv", name, """
                apiVersion: v1
                kind: PersistentVolume
                metadata: {name: %s}
                spec:
                  storageClassName: ""
                  capacity: {storage: 1Mi}
                  accessModes: [ReadWriteOnce]
                  claimRef: {namespace: default, name: %s}
                  local: {path: %s}
                  nodeAffinity:
                    required:
                      nodeSelectorTerms:
                      - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [%s]}]
                """.formatted(name, claim, path, agent.nodeName));
    }

    /** A ReadWriteOnce claim {@code claim} bound to the local volume {@code volume} on {@code disk}. */
    private void bindLocal(String claim, String volume, Path disk) {
        claim(claim, "ReadWriteOnce");
        localVolume(volume, disk, claim);
        awaitBound(claim);
    }

    private void hostPathVolume(String name, Path path, String mode, String claim) {
        apply("pv", name, """
                apiVersion: v1
                kind: PersistentVolume
                metadata: {name: %s}
                spec:
                  storageClassName: ""
                  capacity: {storage: 1Mi}
                  accessModes: [%s]
                  claimRef: {namespace: default, name: %s}
                  hostPath: {path: %s, type: DirectoryOrCreate}
                """.formatted(name, mode, claim, path));
    }

    /**
     * A pod on this node running {@code script}: its claim {@code claim} mounted at /data, its {@code db} directory at
     * /sub ({@code subPath}), its directory named for the pod at /mine ({@code subPathExpr}); a memory emptyDir at /shm.
     */
    private void claimPod(String name, String claim, String script) {
        podOnThisNode(name, script, """
                    - {name: data, mountPath: /mine, subPathExpr: $(POD_NAME)}
                    - {name: shm, mountPath: /shm}
                """, "persistentVolumeClaim: {claimName: " + claim + "}", """
                  - {name: shm, emptyDir: {medium: Memory}}
                """);
    }

    /** A pod on this node that mounts claim {@code claim} read-only (the claim's {@code readOnly}) at /data and /sub. */
    private void readOnlyClaimPod(String name, String claim, String script) {
        podOnThisNode(name, script, "", "persistentVolumeClaim: {claimName: " + claim + ", readOnly: true}", "");
    }

    /**
     * A pod on this node running {@code script} with volume {@code data} ({@code dataSource}: its source as a YAML
     * field in flow style, e.g. {@code persistentVolumeClaim: {claimName: c}}) at /data and its {@code db} directory
     * at /sub; more mounts and volumes as YAML lines indented for their lists.
     */
    private void podOnThisNode(String name, String script, String moreMounts, String dataSource, String moreVolumes) {
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
                    env: [{name: POD_NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}]
                    volumeMounts:
                    - {name: data, mountPath: /data}
                    - {name: data, mountPath: /sub, subPath: db}
                %s  volumes:
                  - {name: data, %s}
                %s""".formatted(name, agent.nodeName, IMAGE, quote(script), moreMounts, dataSource, moreVolumes));
    }

    private void awaitBound(String claim) {
        await("claim " + claim + " Bound").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() ->
                kubectl.run("get", "pvc", claim, "-o", "jsonpath={.status.phase}").out().equals("Bound"));
    }

    private void deletePod(String name) {
        kubectl.run("delete", "pod", name, "--timeout=90s").ok();
    }

    /** The mounts under the pod's directory on this machine, by mount point, with the kernel's mount ID. */
    private Map<String, String> podMounts(String podName) throws Exception {
        String uid = pod(podName).getMetadata().getUid();
        Map<String, String> mounts = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            String[] f = line.split(" ");
            if (f[4].contains("/pods/" + uid + "/")) {
                mounts.put(f[4], f[0]);
            }
        }
        return mounts;
    }

    @Test
    void aStatefulSetStylePodReadsWhatItWroteAfterItIsDeletedAndMadeAgain() throws Exception {
        Path disk = Files.createDirectories(dir.resolve("disks/" + prefix() + "db"));
        String claim = prefix() + "data-db-0";
        String pod = prefix() + "db-0";
        bindLocal(claim, prefix() + "local-db", disk);

        claimPod(pod, claim, "echo written-by-the-first > /data/state; sleep 3600");
        awaitRunning(pod);
        assertThat(exec(pod, "cat /data/state")).isEqualTo("written-by-the-first\n");
        // subPath and subPathExpr are directories of the claim's volume.
        exec(pod, "echo in-db > /sub/f; echo mine > /mine/f");
        assertThat(Files.readString(disk.resolve("db/f"))).isEqualTo("in-db\n");
        assertThat(Files.readString(disk.resolve(pod + "/f"))).isEqualTo("mine\n");
        String firstUid = pod(pod).getMetadata().getUid();
        assertThat(podMounts(pod)).isNotEmpty();

        deletePod(pod);
        // Its mounts are gone, its directory too; the data stays on the volume.
        await().atMost(Duration.ofSeconds(30)).until(() -> !Files.exists(dir.resolve("root/pods/" + firstUid)));
        assertThat(Files.readAllLines(Path.of("/proc/self/mountinfo"))).noneMatch(l -> l.contains(firstUid));
        assertThat(Files.readString(disk.resolve("state"))).isEqualTo("written-by-the-first\n");

        claimPod(pod, claim, "cat /data/state; sleep 3600");
        awaitRunning(pod);
        await().atMost(Duration.ofSeconds(30)).until(() -> kubectl.run("logs", pod).out().equals("written-by-the-first\n"));
        deletePod(pod);
    }

    /**
     * A generic ephemeral volume: the control plane's ephemeral volume controller (its {@code GenericEphemeralVolume}
     * gate on, as the test control plane has it) makes the claim {@code <pod>-data} from the pod's template, owned by
     * the pod. No provisioner runs here: the test does its part, a local volume bound in advance to that claim.
     */
    @Test
    void aGenericEphemeralVolumeIsThePodsOwnClaimUsedAsAnyAndGoneWithThePod() throws Exception {
        Path disk = Files.createDirectories(dir.resolve("disks/" + prefix() + "ephemeral"));
        String pod = prefix() + "scratch-user";
        String claim = pod + "-data";
        localVolume(prefix() + "local-ephemeral", disk, claim);
        podOnThisNode(pod, "echo scratch > /data/f; sleep 3600", "", "ephemeral: {volumeClaimTemplate: {spec: "
                + "{storageClassName: \"\", accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Mi}}}}}", "");
        made.add(new String[] {"pvc", claim});
        awaitRunning(pod);
        assertThat(kubectl.run("get", "pvc", claim, "-o", "jsonpath={.metadata.ownerReferences[0].kind}/"
                + "{.metadata.ownerReferences[0].name}").out()).isEqualTo("Pod/" + pod);
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(disk.resolve("f")));
        assertThat(Files.readString(disk.resolve("f"))).isEqualTo("scratch\n");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            JsonNode summary = JSON.readTree(agent.get(agent.readOnlyPort, "/stats/summary").orElseThrow());
            List<String> claims = new ArrayList<>();
            for (JsonNode p : summary.path("pods")) {
                if (p.path("podRef").path("name").asText().equals(pod)) {
                    p.path("volume").forEach(v -> claims.add(v.path("name").asText() + "=" + v.path("pvcRef").path("name").asText()));
                }
            }
            assertThat(claims).as("the volume's claim in /stats/summary").contains("data=" + claim);
        });

        deletePod(pod);
        // The claim is the pod's: the garbage collector removes it once the pod is gone and the volume unmounted.
        await("claim " + claim + " removed with its pod").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                .until(() -> kubectl.run("get", "pvc", claim, "--ignore-not-found", "-o", "name").out().isBlank());
    }

    @Test
    void twoPodsShareAReadWriteManyHostPathVolume() throws Exception {
        Path shared = dir.resolve("disks/" + prefix() + "shared");
        String claim = prefix() + "shared";
        claim(claim, "ReadWriteMany");
        hostPathVolume(prefix() + "hostpath-shared", shared, "ReadWriteMany", claim);
        awaitBound(claim);

        claimPod(prefix() + "writer", claim, "echo from-the-writer > /data/note; sleep 3600");
        claimPod(prefix() + "reader", claim, "sleep 3600");
        awaitRunning(prefix() + "writer");
        awaitRunning(prefix() + "reader");
        await().atMost(Duration.ofSeconds(10)).until(() -> exec(prefix() + "reader", "cat /data/note 2>/dev/null || true")
                .equals("from-the-writer\n"));
        assertThat(Files.readString(shared.resolve("note"))).isEqualTo("from-the-writer\n");
        deletePod(prefix() + "writer");
        deletePod(prefix() + "reader");
    }

    @Test
    void aPodWaitsWithFailedMountWhileItsClaimIsUnboundOtherPodsRunAndItStartsOnceBound() throws Exception {
        String claim = prefix() + "late";
        String pod = prefix() + "waits";
        claim(claim, "ReadWriteOnce");
        claimPod(pod, claim, "cat /data/hello; sleep 3600");

        String expected = "Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to "
                + "process volumes=[data]: error processing PVC default/" + claim + ": PVC is not bound";
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                assertThat(events("default", pod)).extracting(Event::getReason, Event::getMessage)
                        .contains(org.assertj.core.groups.Tuple.tuple("FailedMount", expected)));
        assertThat(phase(pod)).isEqualTo("Pending");
        // A claim that never binds costs nothing else: another pod runs meanwhile.
        createShellPod(prefix() + "meanwhile", "sleep 3600");
        awaitRunning(prefix() + "meanwhile");
        assertThat(phase(pod)).isEqualTo("Pending");

        Path disk = Files.createDirectories(dir.resolve("disks/" + prefix() + "late"));
        Files.writeString(disk.resolve("hello"), "bound at last\n");
        localVolume(prefix() + "local-late", disk, claim);
        awaitBound(claim);
        awaitRunning(pod);
        await().atMost(Duration.ofSeconds(30)).until(() -> kubectl.run("logs", pod).out().equals("bound at last\n"));
        deletePod(pod);
        deletePod(prefix() + "meanwhile");
    }

    @Test
    void aPodWaitsWithUpstreamsMessageWhileItsClaimIsMissingAndItsDirectoryGoesWhenItIsDeleted() {
        String claim = prefix() + "nowhere";
        String pod = prefix() + "no-claim";
        claimPod(pod, claim, "sleep 3600");

        String expected = "Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to "
                + "process volumes=[data]: error processing PVC default/" + claim + ": failed to fetch PVC from API "
                + "server: persistentvolumeclaims \"" + claim + "\" not found";
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                assertThat(events("default", pod)).extracting(Event::getReason, Event::getMessage)
                        .contains(org.assertj.core.groups.Tuple.tuple("FailedMount", expected)));
        assertThat(phase(pod)).isEqualTo("Pending");
        String uid = pod(pod).getMetadata().getUid();
        deletePod(pod);
        await().atMost(Duration.ofSeconds(30)).until(() -> !Files.exists(dir.resolve("root/pods/" + uid)));
    }

    @Test
    void aReadOnlyClaimIsMountedReadOnlySubPathToo() throws Exception {
        Path disk = Files.createDirectories(dir.resolve("disks/" + prefix() + "ro"));
        Files.createDirectories(disk.resolve("db"));
        Files.writeString(disk.resolve("db/seed"), "seeded\n");
        String claim = prefix() + "ro";
        String pod = prefix() + "reads-only";
        bindLocal(claim, prefix() + "local-ro", disk);

        readOnlyClaimPod(pod, claim, "sleep 3600");
        awaitRunning(pod);
        assertThat(exec(pod, "cat /sub/seed")).isEqualTo("seeded\n");
        assertThat(exec(pod, "{ echo x > /data/f; } 2>&1 || true")).contains("Read-only file system");
        assertThat(exec(pod, "{ echo x > /sub/f; } 2>&1 || true")).contains("Read-only file system");
        assertThat(disk.resolve("f")).doesNotExist();
        assertThat(disk.resolve("db/f")).doesNotExist();
        deletePod(pod);
    }

    @Test
    void restartingTheAgentWhilePodsUseVolumesUnmountsNothing() throws Exception {
        Path disk = Files.createDirectories(dir.resolve("disks/" + prefix() + "keep"));
        String claim = prefix() + "keep";
        String pod = prefix() + "keeps";
        bindLocal(claim, prefix() + "local-keep", disk);
        claimPod(pod, claim, "echo in-memory > /shm/state; sleep 3600");
        awaitRunning(pod);
        Map<String, String> before = podMounts(pod);
        // The claim's bind mount, the memory emptyDir and the service account token's secret volume (v1.20's apiserver
        // gives the token as a secret; a projected token only with BoundServiceAccountTokenVolume).
        assertThat(before.keySet()).anyMatch(m -> m.endsWith("kubernetes.io~local-volume/" + prefix() + "local-keep"))
                .anyMatch(m -> m.endsWith("kubernetes.io~empty-dir/shm")).anyMatch(m -> m.contains("kubernetes.io~secret/"));

        agent.stop();
        int logBefore = agent.logText().length();
        agent.start();
        java.util.function.Supplier<String> sinceRestart = () -> agent.logText().substring(logBefore);
        await().atMost(Duration.ofSeconds(30)).until(() -> sinceRestart.get().contains("Pods bound to this node listed"));
        await().atMost(Duration.ofSeconds(30)).until(() -> sinceRestart.get().contains("Finished populating initial desired state"));
        assertThat(sinceRestart.get()).contains("Volume reconstruction finished: ");
        // Longer than the reconciler's passes and a housekeeping after the restart: the same mounts, never remounted.
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10)).until(() -> podMounts(pod).equals(before));
        assertThat(exec(pod, "cat /shm/state")).isEqualTo("in-memory\n");
        assertThat(pod(pod).getStatus().getContainerStatuses().getFirst().getRestartCount()).isZero();
        assertThat(sinceRestart.get()).doesNotContain("UnmountVolume.TearDown succeeded for volume \"kubernetes.io/local-volume/"
                + prefix() + "local-keep\"");
        deletePod(pod);
    }

    @Test
    void theClaimsUsageShowsInTheStatsSummaryAndTheMetrics() throws Exception {
        Path disk = Files.createDirectories(dir.resolve("disks/" + prefix() + "stats"));
        String claim = prefix() + "stats";
        String pod = prefix() + "measured";
        bindLocal(claim, prefix() + "local-stats", disk);
        claimPod(pod, claim, "sleep 3600");
        awaitRunning(pod);

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            JsonNode summary = JSON.readTree(agent.get(agent.readOnlyPort, "/stats/summary").orElseThrow());
            JsonNode volume = null;
            for (JsonNode p : summary.path("pods")) {
                if (p.path("podRef").path("name").asText().equals(pod)) {
                    for (JsonNode v : p.path("volume")) {
                        if (v.path("name").asText().equals("data")) {
                            volume = v;
                        }
                    }
                }
            }
            assertThat(volume).as("the claim's volume in /stats/summary").isNotNull();
            assertThat(volume.path("pvcRef").path("name").asText()).isEqualTo(claim);
            assertThat(volume.path("pvcRef").path("namespace").asText()).isEqualTo("default");
            assertThat(volume.path("capacityBytes").asLong()).isPositive();
            assertThat(volume.path("usedBytes").asLong()).isPositive();
        });
        String metrics = agent.get(agent.readOnlyPort, "/metrics").orElseThrow();
        assertThat(metrics).containsPattern("kubelet_volume_stats_capacity_bytes\\{namespace=\"default\",persistentvolumeclaim=\""
                + claim + "\"\\} [0-9.e+]+").contains("kubelet_volume_stats_used_bytes{namespace=\"default\",persistentvolumeclaim=\""
                + claim + "\"}");
        deletePod(pod);
    }
}
