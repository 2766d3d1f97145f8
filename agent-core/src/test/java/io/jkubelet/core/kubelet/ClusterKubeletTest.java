package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.jkubelet.core.cluster.ClusterSide;
import io.jkubelet.core.config.ConfigAnnotations;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.jkubelet.core.config.PodOperation;
import io.jkubelet.core.config.PodUpdate;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The core with an apiserver (fabric8's CRUD mock) and the fake runtime: status written to the apiserver, graceful
 * deletion, mirror pods. The pods are handed to the kubelet as the apiserver source would (that source is tested
 * on its own in {@code ApiserverSourceTest}).
 */
@EnableKubernetesMockClient(crud = true)
class ClusterKubeletTest {
    KubernetesClient client;

    @TempDir Path root;
    private final FakeClock clock = new FakeClock();
    private FakeRuntime runtime;
    private Kubelet kubelet;
    private ClusterSide cluster;
    private String nodeUid;

    @BeforeEach
    void setUp() {
        runtime = new FakeRuntime(clock);
        runtime.addImage("busybox:1.36");
        runtime.addImage("jkubelet/pause:3.9");
        nodeUid = client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().build())
                .create().getMetadata().getUid();
        cluster = ClusterSide.connect(client, "v1.30.0", clock);
        kubelet = new Kubelet(TestSettings.under(root),
                KubeletDeps.builder(runtime, runtime, new LoggingEventRecorder(clock), clock).cluster(cluster).build());
        kubelet.start();
        // The apiserver source (not started here: the tests deliver its pods) has listed once, so housekeeping runs.
        kubelet.sourceChannel(io.jkubelet.core.config.PodSources.API)
                .send(PodUpdate.set(io.jkubelet.core.config.PodSources.API, List.of()));
    }

    @AfterEach
    void stop() {
        kubelet.close();
        cluster.close();
    }

    private static Container sleeper() {
        return new ContainerBuilder().withName("c").withImage("busybox:1.36").withImagePullPolicy("IfNotPresent")
                .withCommand("sleep", "3600").build();
    }

    /** A pod as the apiserver source delivers it: created in the apiserver, bound to the node. */
    private Pod apiPod(String name) {
        Pod created = client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName(name)
                .endMetadata().withNewSpec().withNodeName("node-a").withContainers(sleeper())
                .withTerminationGracePeriodSeconds(30L).endSpec().build()).create();
        Pod delivered = new PodBuilder(created).editMetadata()
                .addToAnnotations(ConfigAnnotations.CONFIG_SOURCE, "api").endMetadata().build();
        kubelet.deliver(new PodUpdate(List.of(delivered), PodOperation.ADD, "test"));
        return delivered;
    }

    private Pod inApiserver(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    /** The pod's phase as the apiserver has it; null before the kubelet has written a status. */
    private static String phase(Pod pod) {
        return pod == null || pod.getStatus() == null ? null : pod.getStatus().getPhase();
    }

    private long running() {
        return runtime.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null)).size();
    }

    @Test
    void theStatusOfAPodFromTheApiserverIsWrittenBack() {
        apiPod("web");

        await().atMost(Duration.ofSeconds(20)).until(() -> "Running".equals(phase(inApiserver("web"))));
        Pod written = inApiserver("web");
        assertThat(written.getStatus().getHostIP()).isEqualTo("192.168.1.10");
        assertThat(written.getStatus().getContainerStatuses()).singleElement()
                .satisfies(c -> assertThat(c.getState().getRunning()).isNotNull());
        assertThat(written.getStatus().getConditions()).extracting("type").contains("Ready", "PodScheduled");
    }

    /**
     * Upstream's "should support pod readiness gates": a controller sets the gates' conditions in the apiserver; the
     * kubelet hears it as a change of status alone (a RECONCILE) and syncs the pod then, so that Ready turns True
     * without waiting for the periodic sync (this test's clock never reaches it).
     */
    @Test
    void aReadinessGateSetInTheApiserverMakesThePodReadyAtOnce() {
        Pod created = client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("gated")
                .endMetadata().withNewSpec().withNodeName("node-a").withContainers(sleeper())
                .addNewReadinessGate().withConditionType("k8s.io/test-condition1").endReadinessGate().endSpec().build())
                .create();
        Pod delivered = new PodBuilder(created).editMetadata()
                .addToAnnotations(ConfigAnnotations.CONFIG_SOURCE, "api").endMetadata().build();
        kubelet.deliver(new PodUpdate(List.of(delivered), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(20)).until(() -> "ReadinessGatesNotReady".equals(readyReason(inApiserver("gated"))));

        // The controller's patch, and the apiserver source's RECONCILE of the pod with the apiserver's new status.
        Pod patched = inApiserver("gated");
        patched.getStatus().getConditions().add(new io.fabric8.kubernetes.api.model.PodConditionBuilder()
                .withType("k8s.io/test-condition1").withStatus("True").build());
        client.pods().inNamespace("default").resource(patched).updateStatus();
        Pod reconciled = new PodBuilder(inApiserver("gated")).editMetadata()
                .addToAnnotations(ConfigAnnotations.CONFIG_SOURCE, "api").endMetadata().build();
        kubelet.deliver(new PodUpdate(List.of(reconciled), PodOperation.RECONCILE, "test"));

        await().atMost(Duration.ofSeconds(20)).until(() -> "True".equals(readyStatus(inApiserver("gated"))));
        assertThat(inApiserver("gated").getStatus().getConditions()).extracting("type").contains("k8s.io/test-condition1");
    }

    private static java.util.Optional<io.fabric8.kubernetes.api.model.PodCondition> readyCondition(Pod pod) {
        if (pod == null || pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return java.util.Optional.empty();
        }
        return pod.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())).findFirst();
    }

    private static String readyReason(Pod pod) {
        return readyCondition(pod).map(c -> c.getReason()).orElse(null);
    }

    private static String readyStatus(Pod pod) {
        return readyCondition(pod).map(c -> c.getStatus()).orElse(null);
    }

    @Test
    void aPodDeletedGracefullyIsStoppedThenRemovedFromTheApiserver() {
        Pod pod = apiPod("web");
        await().atMost(Duration.ofSeconds(20)).until(() -> running() == 1);

        Pod deleting = new PodBuilder(pod).editMetadata().withDeletionTimestamp("2026-12-03T10:00:00Z")
                .withDeletionGracePeriodSeconds(30L).endMetadata().build();
        kubelet.deliver(new PodUpdate(List.of(deleting), PodOperation.DELETE, "test"));

        await().atMost(Duration.ofSeconds(20)).until(() -> inApiserver("web") == null);
        assertThat(running()).as("its containers were stopped first").isZero();
    }

    @Test
    void aStaticPodGetsAMirrorPodOwnedByTheNodeThatCarriesItsStatus() {
        Pod staticPod = new PodBuilder().withNewMetadata().withName("etcd-node-a").withNamespace("kube-system")
                .withUid("hash1").addToAnnotations(ConfigAnnotations.CONFIG_SOURCE, "file")
                .addToAnnotations(ConfigAnnotations.CONFIG_HASH, "hash1").endMetadata()
                .withNewSpec().withNodeName("node-a").withContainers(sleeper()).endSpec().build();
        kubelet.deliver(new PodUpdate(List.of(staticPod), PodOperation.ADD, "test"));

        await().atMost(Duration.ofSeconds(20)).until(() -> client.pods().inNamespace("kube-system").withName("etcd-node-a").get() != null);
        Pod mirror = client.pods().inNamespace("kube-system").withName("etcd-node-a").get();
        assertThat(mirror.getMetadata().getAnnotations()).containsEntry(ConfigAnnotations.CONFIG_MIRROR, "hash1");
        assertThat(mirror.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
            assertThat(o.getKind()).isEqualTo("Node");
            assertThat(o.getName()).isEqualTo("node-a");
            assertThat(o.getUid()).isEqualTo(nodeUid);
            assertThat(o.getController()).isTrue();
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> "Running".equals(
                phase(client.pods().inNamespace("kube-system").withName("etcd-node-a").get())));
        assertThat(kubelet.views().pods()).extracting(p -> p.getMetadata().getUid()).as("the mirror pod is not run").containsExactly("hash1");

        // A user deletes the mirror pod: the static pod keeps running and its mirror pod comes back.
        client.pods().inNamespace("kube-system").withName("etcd-node-a").delete();
        kubelet.deliver(new PodUpdate(List.of(mirrored(mirror)), PodOperation.REMOVE, "test"));
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            Pod again = client.pods().inNamespace("kube-system").withName("etcd-node-a").get();
            return again != null && !again.getMetadata().getUid().equals(mirror.getMetadata().getUid());
        });
        assertThat(running()).isEqualTo(1);

        // The manifest goes away: the static pod stops and its mirror pod is deleted.
        Pod second = client.pods().inNamespace("kube-system").withName("etcd-node-a").get();
        kubelet.deliver(new PodUpdate(List.of(mirrored(second)), PodOperation.ADD, "test"));
        kubelet.deliver(new PodUpdate(List.of(staticPod), PodOperation.REMOVE, "test"));
        await().atMost(Duration.ofSeconds(20)).until(() -> client.pods().inNamespace("kube-system").withName("etcd-node-a").get() == null);
        await().atMost(Duration.ofSeconds(20)).until(() -> running() == 0);
    }

    /** A mirror pod as the apiserver source delivers it. */
    private static Pod mirrored(Pod fromApiserver) {
        return new PodBuilder(fromApiserver).editMetadata().addToAnnotations(ConfigAnnotations.CONFIG_SOURCE, "api")
                .endMetadata().build();
    }

}
