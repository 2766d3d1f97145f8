package io.jkubelet.core.status;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.jkubelet.core.cluster.fabric8.Fabric8PodStatusClient;
import io.jkubelet.core.config.ConfigAnnotations;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@EnableKubernetesMockClient(crud = true)
class ApiStatusSyncTest {
    KubernetesMockServer server;
    KubernetesClient client;

    private final Clock clock = Clock.fixed(Instant.parse("2026-12-03T10:00:00Z"), ZoneOffset.UTC);
    private final Map<String, Pod> known = new HashMap<>();
    private final Map<String, Pod> mirrors = new HashMap<>();
    private boolean reclaimed;
    private StatusManager statusManager;
    private ApiStatusSync sync;

    @BeforeEach
    void setUp() {
        statusManager = new StatusManager(clock);
        // No retries, as the kubelet's own client (KubeClients): a refused patch is the sync's to handle.
        sync = new ApiStatusSync(new Fabric8PodStatusClient(server.createClient(b -> b.editOrNewConfig()
                .withRequestRetryBackoffLimit(0).endConfig())), statusManager, new ApiStatusSync.Pods() {
            @Override
            public Optional<Pod> pod(String uid) {
                return Optional.ofNullable(known.get(uid));
            }

            @Override
            public Optional<Pod> mirrorPodOf(Pod staticPod) {
                return Optional.ofNullable(mirrors.get(ConfigAnnotations.podFullName(staticPod)));
            }

            @Override
            public boolean podResourcesReclaimed(String uid) {
                return reclaimed;
            }
        });
    }

    private Pod createInApiserver(String name, PodStatus status) {
        Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withNewSpec().withNodeName("node-a").addNewContainer().withName("c").withImage("busybox").endContainer()
                .endSpec().withStatus(status).build();
        Pod created = client.pods().inNamespace("default").resource(pod).create();
        known.put(created.getMetadata().getUid(), created);
        return created;
    }

    private static PodStatus running(PodCondition... conditions) {
        return new PodStatusBuilder().withPhase("Running").withHostIP("10.0.0.1").withPodIP("172.17.0.5")
                .withQosClass("BestEffort").addToConditions(conditions).build();
    }

    private static PodCondition condition(String type, String status) {
        return new PodConditionBuilder().withType(type).withStatus(status).build();
    }

    @Test
    void writesTheKubeletsStatusAndKeepsWhatOthersOwn() {
        PodStatus scheduled = new PodStatusBuilder().withPhase("Pending").withNominatedNodeName("node-a")
                .addToConditions(condition("PodScheduled", "True"), condition("example.com/gate", "True")).build();
        Pod pod = createInApiserver("web", scheduled);

        statusManager.setPodStatus(pod, running(condition("Ready", "True"), condition("PodScheduled", "True")));
        sync.syncPod(pod.getMetadata().getUid());

        PodStatus written = client.pods().inNamespace("default").withName("web").get().getStatus();
        assertThat(written.getPhase()).isEqualTo("Running");
        assertThat(written.getPodIP()).isEqualTo("172.17.0.5");
        assertThat(written.getNominatedNodeName()).as("the scheduler's field is kept").isEqualTo("node-a");
        assertThat(written.getConditions()).extracting(PodCondition::getType)
                .containsExactlyInAnyOrder("example.com/gate", "Ready", "PodScheduled");
    }

    @Test
    void anEvictionsDisruptionConditionIsWrittenWithTheFailedPhase() {
        Pod pod = createInApiserver("web", running(condition("Ready", "True"), condition("DisruptionTarget", "False")));
        PodStatus evicted = new PodStatusBuilder().withPhase("Failed").withReason("Evicted").withMessage("low on memory")
                .addToConditions(condition("Ready", "False"), new PodConditionBuilder().withType("DisruptionTarget")
                        .withStatus("True").withReason("TerminationByKubelet").withMessage("low on memory").build())
                .build();

        statusManager.setPodStatus(pod, evicted);
        sync.syncPod(pod.getMetadata().getUid());

        PodStatus written = client.pods().inNamespace("default").withName("web").get().getStatus();
        assertThat(written.getPhase()).isEqualTo("Failed");
        assertThat(written.getConditions()).filteredOn(c -> c.getType().equals("DisruptionTarget")).singleElement()
                .satisfies(c -> {
                    assertThat(c.getStatus()).isEqualTo("True");
                    assertThat(c.getReason()).isEqualTo("TerminationByKubelet");
                });
    }

    @Test
    void anUnchangedStatusIsNotWrittenAgain() throws Exception {
        Pod pod = createInApiserver("web", new PodStatus());
        statusManager.setPodStatus(pod, running());
        sync.syncPod(pod.getMetadata().getUid());
        int before = server.getRequestCount();

        sync.syncPod(pod.getMetadata().getUid());
        assertThat(server.getRequestCount()).as("same version: no request at all").isEqualTo(before);

        // A new version equal to what the apiserver has (as the watch delivered it): not patched.
        known.put(pod.getMetadata().getUid(), client.pods().inNamespace("default").withName("web").get());
        statusManager.setPodStatus(pod, new PodStatusBuilder(running()).withMessage("x").build());
        statusManager.setPodStatus(pod, running());
        drain();
        before = server.getRequestCount();
        sync.syncPod(pod.getMetadata().getUid());
        assertThat(server.getRequestCount()).isEqualTo(before);
    }

    @Test
    void theStatusSubresourceIsPatchedAfterTestingTheUid() throws Exception {
        Pod pod = createInApiserver("web", new PodStatus());
        int before = server.getRequestCount();
        statusManager.setPodStatus(pod, running());
        sync.syncPod(pod.getMetadata().getUid());

        // One request per status change, as upstream: no read of the pod before the patch.
        RecordedRequest patch = org.assertj.core.api.Assertions.assertThat(requestsSince(before)).singleElement().actual();
        assertThat(patch.getMethod()).isEqualTo("PATCH");
        assertThat(patch.getPath()).isEqualTo("/api/v1/namespaces/default/pods/web/status");
        assertThat(patch.getHeader("Content-Type")).startsWith("application/json-patch+json");
    }

    @Test
    void thePatchTestsTheUidFirstAndSendsOnlyChangedFields() {
        var api = io.jkubelet.core.config.PodCodec.mapper().valueToTree(new PodStatusBuilder().withPhase("Pending")
                .withMessage("old").withNominatedNodeName("node-a").build());
        var ours = (tools.jackson.databind.node.ObjectNode) io.jkubelet.core.config.PodCodec.mapper().valueToTree(
                new PodStatusBuilder().withPhase("Running").withPodIP("172.17.0.5").build());
        var ops = StatusPatch.between("uid-1", api, ours, ApiStatusSync.KUBELET_STATUS_FIELDS);
        assertThat(ops.toString()).isEqualTo("[{\"op\":\"test\",\"path\":\"/metadata/uid\",\"value\":\"uid-1\"},"
                + "{\"op\":\"replace\",\"path\":\"/status/phase\",\"value\":\"Running\"},"
                + "{\"op\":\"add\",\"path\":\"/status/podIP\",\"value\":\"172.17.0.5\"},"
                + "{\"op\":\"remove\",\"path\":\"/status/message\"}]");
        assertThat(StatusPatch.between("uid-1", ours, ours, ApiStatusSync.KUBELET_STATUS_FIELDS)).isEmpty();
    }

    @Test
    void aPodReCreatedUnderTheSameNameIsNotWritten() {
        Pod old = createInApiserver("web", new PodStatus());
        client.pods().inNamespace("default").withName("web").delete();
        createInApiserver("web", new PodStatusBuilder().withPhase("Pending").build());

        statusManager.setPodStatus(old, running());
        sync.syncPod(old.getMetadata().getUid()); // from the watched copy: the UID test refuses the patch
        assertThat(client.pods().inNamespace("default").withName("web").get().getStatus().getPhase()).isEqualTo("Pending");

        sync.syncPod(old.getMetadata().getUid()); // read afresh: another pod, left alone
        assertThat(client.pods().inNamespace("default").withName("web").get().getStatus().getPhase()).isEqualTo("Pending");
    }

    @Test
    void aStaticPodsStatusGoesToItsMirrorPod() {
        Pod mirror = createInApiserver("static-web-node-a", new PodStatus());
        known.remove(mirror.getMetadata().getUid());
        Pod staticPod = new PodBuilder().withNewMetadata().withName("static-web-node-a").withNamespace("default")
                .withUid("abc123").addToAnnotations(ConfigAnnotations.CONFIG_SOURCE, "file")
                .addToAnnotations(ConfigAnnotations.CONFIG_HASH, "abc123").endMetadata().withNewSpec().endSpec().build();
        known.put("abc123", staticPod);
        statusManager.setPodStatus(staticPod, running());

        sync.syncPod("abc123");
        assertThat(client.pods().inNamespace("default").withName("static-web-node-a").get().getStatus().getPhase())
                .as("no mirror pod known yet").isNull();

        mirror.getMetadata().setAnnotations(Map.of(ConfigAnnotations.CONFIG_MIRROR, "abc123"));
        mirrors.put(ConfigAnnotations.podFullName(mirror), mirror);
        sync.syncPod("abc123");
        assertThat(client.pods().inNamespace("default").withName("static-web-node-a").get().getStatus().getPhase())
                .isEqualTo("Running");
    }

    @Test
    void aDeletedPodIsRemovedWithGraceZeroOnceItsContainersAreGone() throws Exception {
        Pod pod = createInApiserver("web", new PodStatus());
        Pod deleting = new PodBuilder(pod).editMetadata().withDeletionTimestamp("2026-12-03T10:00:00Z")
                .withDeletionGracePeriodSeconds(30L).endMetadata().build();
        known.put(pod.getMetadata().getUid(), deleting);
        statusManager.setPodStatus(deleting, new PodStatusBuilder().withPhase("Failed").build());

        sync.syncPod(pod.getMetadata().getUid());
        assertThat(client.pods().inNamespace("default").withName("web").get()).as("containers still there").isNotNull();

        reclaimed = true;
        int before = server.getRequestCount();
        sync.syncPod(pod.getMetadata().getUid());
        RecordedRequest delete = requestsSince(before).stream().filter(r -> r.getMethod().equals("DELETE")).findFirst().orElseThrow();
        assertThat(delete.getPath()).isEqualTo("/api/v1/namespaces/default/pods/web");
        assertThat(client.pods().inNamespace("default").withName("web").get()).isNull();

        int after = server.getRequestCount();
        sync.syncPod(pod.getMetadata().getUid());
        assertThat(server.getRequestCount()).as("deleted once only").isEqualTo(after);
    }

    private void drain() throws InterruptedException {
        while (server.takeRequest(1, TimeUnit.MILLISECONDS) != null) {
            // discard
        }
    }

    private java.util.List<RecordedRequest> requestsSince(int count) throws InterruptedException {
        java.util.List<RecordedRequest> all = new java.util.ArrayList<>();
        RecordedRequest r;
        while ((r = server.takeRequest(50, TimeUnit.MILLISECONDS)) != null) {
            all.add(r);
        }
        return all.subList(Math.max(0, all.size() - (server.getRequestCount() - count)), all.size());
    }
}
