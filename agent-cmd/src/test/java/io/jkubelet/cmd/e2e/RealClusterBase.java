package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.cmd.e2e.apiserver.Kubectl;
import io.jkubelet.cmd.e2e.cluster.ControlPlane;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInfo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * One jkubelet joined to the real control plane ({@link ControlPlane#shared()}) for a test class, with the
 * node's own identity (system:node:NAME), its serving port behind webhook authentication and authorization as
 * a cluster runs it, the cluster's DNS ({@link ControlPlane#kubeletFlags()}), and the operator's kubectl
 * (cluster-admin). Each test makes pods of its own names.
 */
@Tag("docker")
@Tag("control-plane")
abstract class RealClusterBase {
    static final String IMAGE = AgentTestBase.IMAGE;

    static ControlPlane cluster;
    static Kubectl kubectl;
    static KubernetesClient client;
    static Agent agent;
    static Path dir;

    /**
     * Starts the class's agent. A test class gives it flags besides the cluster node's own with a method
     * {@code static String[] agentArgs()}, called just before the agent starts (what must exist before it, it makes).
     */
    @BeforeAll
    static void joinTheCluster(TestInfo test) throws Exception {
        join(agentArgs(test.getTestClass().orElseThrow()));
    }

    private static String[] agentArgs(Class<?> testClass) throws Exception {
        Method args;
        try {
            args = testClass.getDeclaredMethod("agentArgs");
        } catch (NoSuchMethodException e) {
            return new String[0];
        }
        args.setAccessible(true);
        try {
            return (String[]) args.invoke(null);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private static void join(String... extraArgs) throws Exception {
        cluster = ControlPlane.shared();
        kubectl = cluster.kubectl();
        client = cluster.adminClient();
        dir = Files.createTempDirectory("jk-cluster-node");
        String node = "node-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> args = new ArrayList<>(List.of("--node-ip", "127.0.0.1", "--node-status-update-frequency", "2s",
                "--client-ca-file", cluster.dir.resolve("pki/ca.crt").toString(),
                "--anonymous-auth=false", "--authentication-token-webhook", "--authorization-mode", "Webhook"));
        args.addAll(cluster.kubeletFlags());
        args.addAll(List.of(extraArgs));
        agent = Agent.clusterNode(dir, node, cluster.nodeKubeconfig(node), args.toArray(String[]::new)).start();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                org.assertj.core.api.Assertions.assertThat(kubectl.run("get", "node", agent.nodeName).out())
                        .containsPattern(agent.nodeName + "\\s+Ready\\s"));
    }

    @AfterAll
    static void leaveTheCluster() throws Exception {
        if (agent != null) {
            agent.stop();
            Docker.removeAll(agent.nodeName);
            agent.removeCgroups();
            unmountUnder(dir);
            if (System.getenv("JK_E2E_SHOW_LOGS") != null) {
                System.out.println(agent.logText());
            }
            kubectl.run("delete", "node", agent.nodeName, "--wait=false");
            ControlPlane.deleteTree(dir);
        }
        if (client != null) {
            client.close();
        }
    }

    /**
     * Secret and projected volumes are tmpfs mounts a stopped agent leaves, and a CSI driver's bind mounts; they go
     * before the directory, and so does the root directory's own bind mount, which both kubelets make at start where
     * the host's mount is not shared (MakeRShared). A root directory made rshared can show a mount again through
     * propagation once another is gone: the table is read again until nothing under {@code root} is left, and what
     * still will not go is detached lazily.
     */
    static void unmountUnder(Path root) throws IOException, InterruptedException {
        for (int pass = 0; pass < 5; pass++) {
            List<String> mounts = mountsUnder(root);
            if (mounts.isEmpty()) {
                return;
            }
            for (String m : mounts.reversed()) {
                new ProcessBuilder(pass < 4 ? List.of("umount", m) : List.of("umount", "-l", m)).inheritIO().start().waitFor();
            }
        }
    }

    private static List<String> mountsUnder(Path root) throws IOException {
        List<String> mounts = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            String[] f = line.split(" ");
            // Whole segments: another test's /tmp/junit12345 is not under /tmp/junit1234.
            if (f.length > 4 && (f[4].equals(root.toString()) || f[4].startsWith(root + "/"))) {
                mounts.add(f[4]);
            }
        }
        return mounts;
    }

    /** {@code kubectl create -f -} of a pod; {@code spec} is the YAML under {@code spec:}, indented by two. */
    static void createPod(String name, String spec) {
        createPod(kubectl, name, spec);
    }

    /** As {@link #createPod(String, String)}, by {@code kubectl} (a test class's own cluster). */
    static void createPod(Kubectl kubectl, String name, String spec) {
        kubectl.runWithInput("""
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: default}
                spec:
                %s""".formatted(name, spec), "create", "-f", "-").ok();
    }

    /** A pod bound to this node with one container {@code app} running {@code script} in sh. */
    static void createShellPod(String name, String script) {
        createPod(name, shellPodSpec(agent.nodeName, script));
    }

    /** The spec (indented by two, for {@link #createPod}) of a pod bound to {@code node} running {@code script} in sh. */
    static String shellPodSpec(String node, String script) {
        return """
                  nodeName: %s
                  terminationGracePeriodSeconds: 5
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sh", "-c", %s]
                """.formatted(node, IMAGE, quote(script));
    }

    /**
     * A pod bound to this node with one container {@code app} that sleeps, with these resources (YAML flow style,
     * e.g. {@code {requests: {memory: 16Mi}}}; {@code {}} for none: BestEffort).
     */
    static void createSleeper(String name, String resources) {
        createBoundPod(name, "[\"sleep\", \"3600\"]", resources);
    }

    /** A pod bound to this node with one container {@code app} running {@code command} (a YAML flow list). */
    static void createBoundPod(String name, String command, String resources) {
        createPod(name, """
                  nodeName: %s
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: %s
                    resources: %s
                """.formatted(agent.nodeName, IMAGE, command, resources));
    }

    /** A critical pod ({@code system-node-critical}, in {@code kube-system}) bound to this node, that sleeps. */
    static void createCriticalPod(String name) {
        createCriticalPod(name, IMAGE);
    }

    /** As {@link #createCriticalPod(String)}, its container made from {@code image}. */
    static void createCriticalPod(String name, String image) {
        kubectl.runWithInput("""
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: kube-system}
                spec:
                  nodeName: %s
                  priorityClassName: system-node-critical
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: Never
                    command: ["sleep", "3600"]
                """.formatted(name, agent.nodeName, image), "create", "-f", "-").ok();
    }

    /** Waits until the critical pod runs and the eviction manager has passed it over (its log says so); it still runs. */
    static void awaitCriticalPodNeverEvicted(String name) {
        var critical = client.pods().inNamespace("kube-system").withName(name);
        await().atMost(Duration.ofSeconds(90)).until(() -> {
            Pod p = critical.get();
            return p.getStatus() != null && "Running".equals(p.getStatus().getPhase());
        });
        await().atMost(Duration.ofSeconds(60)).until(() -> agent.logText().contains("cannot evict a critical pod"));
        org.assertj.core.api.Assertions.assertThat(critical.get().getStatus().getPhase()).isEqualTo("Running");
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    static Pod pod(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    static String phase(String name) {
        Pod p = pod(name);
        return p == null || p.getStatus() == null ? null : p.getStatus().getPhase();
    }

    static boolean running(String name) {
        Pod p = pod(name);
        return p != null && p.getStatus() != null && "Running".equals(p.getStatus().getPhase())
                && p.getStatus().getPodIP() != null && !p.getStatus().getPodIP().isEmpty();
    }

    static void awaitRunning(String name) {
        await("pod " + name + " Running in the apiserver").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                .until(() -> running(name));
    }

    static void awaitPhase(String name, String phase) {
        await("pod " + name + " " + phase + " in the apiserver").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500)).until(() -> phase.equals(phase(name)));
    }

    /** The node's condition of this type, as the apiserver has it. */
    static NodeCondition nodeCondition(String type) {
        return client.nodes().withName(agent.nodeName).get().getStatus().getConditions().stream()
                .filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
    }

    /** The events about the object of this name in {@code namespace} (the node's are in {@code default}). */
    static List<Event> events(String namespace, String involvedName) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> involvedName.equals(e.getInvolvedObject().getName())).toList();
    }

    /** The output of {@code kubectl exec NAME -- sh -c SCRIPT}. */
    static String exec(String name, String script) {
        return kubectl.run("exec", name, "--", "sh", "-c", script).ok().out();
    }

    // ---- kubectl as a process that keeps running ----

    static Process kubectlProcess(String... args) throws IOException {
        List<String> cmd = new java.util.ArrayList<>(List.of(Kubectl.binary(), "--kubeconfig", cluster.adminKubeconfig.toString()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    /** Reads the process's output up to the first line that matches; fails after 30 s. */
    static String readLine(Process p, java.util.function.Predicate<String> wanted) throws Exception {
        var reader = p.inputReader(StandardCharsets.UTF_8);
        var line = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                StringBuilder seen = new StringBuilder();
                for (String l; (l = reader.readLine()) != null; ) {
                    if (wanted.test(l)) {
                        return l;
                    }
                    seen.append(l).append('\n');
                }
                throw new AssertionError("output ended without the line wanted; got:\n" + seen);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        return line.get(30, TimeUnit.SECONDS);
    }

    /** {@code kubectl attach} to container {@code app} of a pod that writes {@code line <n>}: newer lines come. */
    static void assertAttachShowsNewLines(String pod) throws Exception {
        Process attach = kubectlProcess("attach", pod, "-c", "app");
        try {
            String first = readLine(attach, l -> l.startsWith("line "));
            int n = Integer.parseInt(first.substring("line ".length()).strip());
            String later = readLine(attach, l -> l.startsWith("line "));
            org.assertj.core.api.Assertions.assertThat(Integer.parseInt(later.substring("line ".length()).strip())).isGreaterThan(n);
        } finally {
            attach.destroy();
            attach.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** {@code kubectl port-forward} to the pod's {@code port}: {@code connections} GETs of /index.html answer {@code page}. */
    static void assertPortForwardServes(String pod, int port, int connections, String page) throws Exception {
        int local = Agent.freePort();
        Process forward = kubectlProcess("port-forward", "pod/" + pod, local + ":" + port);
        try {
            readLine(forward, l -> l.startsWith("Forwarding from 127.0.0.1:" + local));
            java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            for (int i = 0; i < connections; i++) { // several connections over one forwarding session
                java.net.http.HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(
                                java.net.URI.create("http://127.0.0.1:" + local + "/index.html")).timeout(Duration.ofSeconds(10)).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                org.assertj.core.api.Assertions.assertThat(r.statusCode()).isEqualTo(200);
                org.assertj.core.api.Assertions.assertThat(r.body()).isEqualTo(page);
            }
            org.assertj.core.api.Assertions.assertThat(forward.isAlive()).isTrue();
        } finally {
            forward.destroy();
            forward.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
