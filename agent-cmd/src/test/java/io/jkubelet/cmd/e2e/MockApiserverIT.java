package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.jkubelet.cmd.e2e.apiserver.Kubectl;
import io.jkubelet.cmd.e2e.apiserver.MockApiserverProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The end-to-end harness itself, with no agent and no Docker: the mock apiserver process answers the real kubectl
 * as a kube-apiserver would, for objects a kubelet would write (here written by hand).
 */
class MockApiserverIT {
    @TempDir Path dir;
    MockApiserverProcess apiserver;
    Kubectl kubectl;
    KubernetesClient client;

    @BeforeEach
    void start() throws Exception {
        apiserver = new MockApiserverProcess(dir.resolve("apiserver")).start();
        kubectl = new Kubectl(apiserver.kubeconfig);
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl(apiserver.url())
                .withNamespace("default").build()).build();
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        apiserver.stop();
    }

    @Test
    void kubectlShowsANodeAndAPodAsAKubeletWritesThem() {
        kubectl.runWithInput("""
                apiVersion: v1
                kind: Node
                metadata: {name: hand-made, labels: {kubernetes.io/hostname: hand-made}}
                status:
                  conditions:
                  - {type: Ready, status: "True", reason: KubeletReady, message: kubelet is posting ready status}
                  addresses: [{type: InternalIP, address: 10.9.8.7}]
                  nodeInfo: {kubeletVersion: v1.32.0-jkubelet}
                """, "create", "--validate=false", "-f", "-").ok();
        String nodes = kubectl.run("get", "nodes", "-o", "wide").ok().out();
        assertThat(nodes).containsPattern("hand-made\\s+Ready\\s+<none>\\s+\\S+\\s+v1.32.0-jkubelet\\s+10.9.8.7");

        kubectl.run("run", "web", "--image=jkubelet/busybox:1.0", "--overrides={\"spec\":{\"nodeName\":\"hand-made\"}}",
                "--command", "--", "sleep", "1000").ok();
        assertThat(kubectl.run("get", "pods", "-o", "wide").ok().out()).containsPattern("web\\s+0/1\\s+Pending");
        client.pods().withName("web").subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE), """
                {"status":{"phase":"Running","podIP":"172.17.0.42","containerStatuses":[{"name":"web","ready":true,
                 "restartCount":0,"image":"jkubelet/busybox:1.0","imageID":"","state":{"running":{}}}]}}""");
        assertThat(kubectl.run("get", "pods", "-o", "wide").ok().out())
                .containsPattern("web\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+172.17.0.42\\s+hand-made");
        assertThat(kubectl.run("get", "pod", "web", "-o", "yaml").ok().out()).contains("nodeName: hand-made", "phase: Running");
    }

    @Test
    void kubectlDeleteWaitsForTheNodesFinalDelete() throws Exception {
        kubectl.run("run", "p", "--image=jkubelet/busybox:1.0", "--overrides={\"spec\":{\"nodeName\":\"n\"}}").ok();
        String uid = client.pods().withName("p").get().getMetadata().getUid();
        CompletableFuture<Kubectl.Result> delete = CompletableFuture.supplyAsync(() -> kubectl.run("delete", "pod", "p"));
        // Graceful deletion: the pod stays, marked, until its node's kubelet deletes it with grace 0.
        org.awaitility.Awaitility.await().until(() -> kubectl.run("get", "pods").out().contains("Terminating"));
        assertThat(delete).isNotDone();
        var http = java.net.http.HttpClient.newHttpClient();
        int code = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(apiserver.url() + "/api/v1/namespaces/default/pods/p"))
                .header("Content-Type", "application/json")
                .method("DELETE", java.net.http.HttpRequest.BodyPublishers.ofString(
                        "{\"gracePeriodSeconds\":0,\"preconditions\":{\"uid\":\"" + uid + "\"}}")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode();
        assertThat(code).isEqualTo(200);
        assertThat(delete.get(60, java.util.concurrent.TimeUnit.SECONDS).ok().out()).contains("pod \"p\" deleted");
        assertThat(kubectl.run("get", "pod", "p").err()).contains("NotFound");
    }

    @Test
    void objectsSurviveAnApiserverRestart() throws Exception {
        kubectl.run("run", "keep", "--image=jkubelet/busybox:1.0", "--overrides={\"spec\":{\"nodeName\":\"n\"}}").ok();
        String uid = client.pods().withName("keep").get().getMetadata().getUid();
        apiserver.stop();
        assertThat(kubectl.run("get", "pods").exitCode()).isNotZero();
        apiserver.start();
        assertThat(client.pods().withName("keep").get().getMetadata().getUid()).isEqualTo(uid);
        assertThat(kubectl.run("get", "pods").ok().out()).contains("keep");
    }
}
