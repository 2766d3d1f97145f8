package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The built jar as a node of a real Kubernetes v1.20.2 control plane, looked at with the real kubectl as an
 * operator joining a node checks it: registration, Lease, pods bound and scheduled, status, deletion, mirror pods,
 * admission, and an apiserver that restarts over a compacted etcd.
 */
class ClusterNodeIT extends RealClusterBase {

    @Test
    void nodeRegistersWithItsIdentityAndIsReadyWithALease() {
        assertThat(kubectl.run("get", "nodes", "-o", "wide").ok().out())
                .containsPattern(agent.nodeName + "\\s+Ready\\s+<none>\\s+\\S+\\s+\\S+\\s+127\\.0\\.0\\.1\\s");
        Node node = client.nodes().withName(agent.nodeName).get();
        assertThat(node.getMetadata().getLabels()).containsEntry("kubernetes.io/hostname", agent.nodeName)
                .containsEntry("kubernetes.io/os", "linux").containsKey("kubernetes.io/arch");
        // The apiserver reaches the node's kubelet at the port it reports (exec, logs, port-forward go there).
        assertThat(node.getStatus().getDaemonEndpoints().getKubeletEndpoint().getPort()).isEqualTo(agent.port);
        assertThat(node.getStatus().getAllocatable()).containsKeys("cpu", "memory", "pods");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(kubectl.run("get", "lease", "-n", "kube-node-lease", agent.nodeName).out())
                        .containsPattern(agent.nodeName + "\\s+" + agent.nodeName + "\\s"));
        // ... renewed every 10 s (a quarter of its 40 s duration).
        String renewed = lease().getSpec().getRenewTime().toString();
        await().atMost(Duration.ofSeconds(30)).until(() -> !lease().getSpec().getRenewTime().toString().equals(renewed));
        assertThat(lease().getSpec().getLeaseDurationSeconds()).isEqualTo(40);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(kubectl.run("get", "events", "-A", "--field-selector", "involvedObject.name=" + agent.nodeName).out())
                        .contains("NodeHasSufficientMemory"));
    }

    static io.fabric8.kubernetes.api.model.coordination.v1.Lease lease() {
        return client.leases().inNamespace("kube-node-lease").withName(agent.nodeName).get();
    }

    @Test
    void aPodBoundToTheNodeRunsAndItsStatusAndEventsAreWrittenBack() {
        createShellPod("web", "trap 'exit 0' TERM; echo started; sleep 3600 & wait");
        awaitRunning("web");
        String ip = pod("web").getStatus().getPodIP();
        assertThat(kubectl.run("get", "pod", "web", "-o", "wide").ok().out())
                .containsPattern("web\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+" + ip.replace(".", "\\.") + "\\s+" + agent.nodeName);
        assertThat(Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=web", "label=io.kubernetes.container.name=app"))
                .hasSize(1);
        assertThat(pod("web").getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getStatus()).isEqualTo("True");
        });
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            List<Event> events = client.v1().events().inNamespace("default").list().getItems();
            assertThat(events).anySatisfy(e -> {
                assertThat(e.getInvolvedObject().getName()).isEqualTo("web");
                assertThat(e.getReason()).isEqualTo("Started");
                assertThat(e.getSource().getComponent()).isEqualTo("kubelet");
                assertThat(e.getSource().getHost()).isEqualTo(agent.nodeName);
            });
        });
    }

    @Test
    void aPodTheSchedulerPlacesOnTheNodeRuns() {
        createPod("placed", """
                  nodeSelector: {kubernetes.io/hostname: %s}
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sleep", "3600"]
                """.formatted(agent.nodeName, IMAGE));
        awaitRunning("placed");
        assertThat(pod("placed").getSpec().getNodeName()).isEqualTo(agent.nodeName);
        assertThat(kubectl.run("get", "events", "--field-selector", "involvedObject.name=placed").ok().out())
                .contains("Scheduled", "Successfully assigned default/placed to " + agent.nodeName);
    }

    @Test
    void kubectlDeleteStopsTheContainersGracefullyAndThePodGoes() {
        createShellPod("doomed", "trap 'echo bye; exit 0' TERM; sleep 3600 & wait");
        awaitRunning("doomed");
        // kubectl waits until the node's kubelet has stopped the pod and deleted it for good (grace period 0).
        assertThat(kubectl.run("delete", "pod", "doomed", "--timeout=60s").ok().out()).contains("pod \"doomed\" deleted");
        assertThat(kubectl.run("get", "pod", "doomed").err()).contains("NotFound");
        await().atMost(Duration.ofSeconds(30)).until(() ->
                Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=doomed").isEmpty());
        // The container ended on its TERM trap (exit 0), not a kill.
        List<String> exited = Docker.ids(agent.nodeName, "label=io.kubernetes.pod.name=doomed", "label=io.kubernetes.container.name=app");
        for (String id : exited) {
            String exitCode = Docker.inspect(id, "{{.State.ExitCode}}");
            // The kubelet removes a deleted pod's dead containers, possibly between the listing and this look.
            if (!exitCode.startsWith("Error: No such object")) {
                assertThat(exitCode).isEqualTo("0");
            }
        }
    }

    @Test
    void aStaticPodGetsAMirrorPodThatComesBackWhenDeleted() throws Exception {
        agent.writeManifest("static.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: static}
                spec:
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]
                """.formatted(IMAGE));
        String mirror = "static-" + agent.nodeName;
        awaitRunning(mirror);
        Pod pod = pod(mirror);
        assertThat(pod.getMetadata().getAnnotations()).containsKey("kubernetes.io/config.mirror")
                .containsEntry("kubernetes.io/config.source", "file");
        // NodeRestriction: the node may only make mirror pods owned by its own Node object.
        assertThat(pod.getMetadata().getOwnerReferences()).anySatisfy(o -> {
            assertThat(o.getKind()).isEqualTo("Node");
            assertThat(o.getName()).isEqualTo(agent.nodeName);
        });
        String container = Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=" + mirror,
                "label=io.kubernetes.container.name=app").getFirst();
        kubectl.run("delete", "pod", mirror, "--grace-period=0", "--force").ok();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Pod again = pod(mirror);
            return again != null && !again.getMetadata().getUid().equals(pod.getMetadata().getUid());
        });
        assertThat(Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=" + mirror)).contains(container);
        agent.removeManifest("static.yaml");
        await().atMost(Duration.ofSeconds(60)).until(() -> pod(mirror) == null);
    }

    @Test
    void aPodThatDoesNotFitIsRejectedByTheNodeWithItsReason() {
        createSleeper("huge", "{requests: {cpu: \"1000\"}}");
        awaitPhase("huge", "Failed");
        assertThat(pod("huge").getStatus().getReason()).isEqualTo("OutOfcpu");
        assertThat(pod("huge").getStatus().getMessage()).startsWith("Pod was rejected: Node didn't have enough resource: cpu, requested: 1000000");
        assertThat(Docker.ids(agent.nodeName, "label=io.kubernetes.pod.name=huge")).isEmpty();
    }

    @Test
    void anApiserverRestartOverACompactedEtcdStopsNoPodAndTheWatchResumes() throws Exception {
        createShellPod("steady", "trap 'exit 0' TERM; sleep 3600 & wait");
        awaitRunning("steady");
        List<String> containers = Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=steady");
        // Objects the node's watch has not seen, then etcd compacted past them: the watch resumes from a
        // resourceVersion that no longer exists (410 Gone) and has to list again.
        kubectl.runWithInput("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: churn}\ndata: {a: b}\n", "create", "-f", "-").ok();
        kubectl.run("delete", "configmap", "churn").ok();
        cluster.compact();
        cluster.restartApiserver();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                assertThat(kubectl.run("get", "node", agent.nodeName).out()).containsPattern(agent.nodeName + "\\s+Ready\\s"));
        // A pod created after the restart is seen and run; the old one was never touched.
        createShellPod("after", "sleep 3600");
        awaitRunning("after");
        assertThat(Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=steady")).isEqualTo(containers);
        assertThat(pod("steady").getStatus().getContainerStatuses().getFirst().getRestartCount()).isZero();
        // A deletion after the restart reaches the node through the resumed watch.
        kubectl.run("delete", "pod", "steady", "--timeout=60s").ok();
        await().atMost(Duration.ofSeconds(30)).until(() ->
                Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=steady").isEmpty());
    }

    @Test
    void restartingTheAgentRestartsNoContainerOfAnApiserverPod() throws Exception {
        createShellPod("survivor", "sleep 3600");
        awaitRunning("survivor");
        List<String> containers = Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=survivor");
        agent.stop();
        agent.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> agent.logText().contains("Pods bound to this node listed"));
        // Longer than a housekeeping pass after the restart: nothing was killed as unwanted.
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10)).until(() ->
                Docker.running(agent.nodeName, "label=io.kubernetes.pod.name=survivor").equals(containers));
        assertThat(agent.logText()).doesNotContain("Killing unwanted pod default/survivor");
        assertThat(pod("survivor").getStatus().getContainerStatuses().getFirst().getRestartCount()).isZero();
    }

    @Test
    void callersOfTheKubeletPortAreAuthenticatedAndAuthorizedByTheApiserver() throws Exception {
        // Two service accounts: one bound to a role that may read nodes/proxy, one with nothing.
        kubectl.run("create", "serviceaccount", "reader").ok();
        kubectl.run("create", "serviceaccount", "nobody").ok();
        kubectl.run("create", "clusterrole", "node-proxy-reader", "--verb=get", "--resource=nodes/proxy").ok();
        kubectl.run("create", "clusterrolebinding", "reader-node-proxy", "--clusterrole=node-proxy-reader",
                "--serviceaccount=default:reader").ok();
        String reader = serviceAccountToken("reader");
        String nobody = serviceAccountToken("nobody");
        // TokenReview authenticates, SubjectAccessReview authorizes GET /pods as nodes/proxy.
        assertThat(kubeletGet("/pods", reader)).startsWith("200 ").contains("\"kind\":\"PodList\"");
        assertThat(kubeletGet("/pods", nobody)).startsWith("403 ").contains("Forbidden (user=system:serviceaccount:default:nobody, "
                + "verb=get, resource=nodes, subresource=proxy)");
        assertThat(kubeletGet("/pods", "not-a-token")).startsWith("401 ");
        assertThat(kubeletGet("/pods", null)).startsWith("401 ");
    }

    /** The token of a service account's token Secret, made by the controller manager (v1.20 still makes them). */
    static String serviceAccountToken(String name) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            var sa = client.serviceAccounts().inNamespace("default").withName(name).get();
            return sa != null && sa.getSecrets() != null && !sa.getSecrets().isEmpty();
        });
        String secret = client.serviceAccounts().inNamespace("default").withName(name).get().getSecrets().getFirst().getName();
        return new String(java.util.Base64.getDecoder().decode(
                client.secrets().inNamespace("default").withName(secret).get().getData().get("token")), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** {@code curl -k https://127.0.0.1:<kubelet port><path>} with a bearer token (none when null): "status body". */
    static String kubeletGet(String path, String token) throws Exception {
        // -k: the node's serving certificate is self-signed for its hostname, as upstream's is.
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("curl", "-sk", "-m", "20", "-w", "\n%{http_code}"));
        if (token != null) {
            cmd.addAll(java.util.List.of("-H", "Authorization: Bearer " + token));
        }
        cmd.add("https://127.0.0.1:" + agent.port + path);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        p.waitFor();
        int nl = out.lastIndexOf('\n');
        return out.substring(nl + 1) + " " + out.substring(0, nl);
    }
}
