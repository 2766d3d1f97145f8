package io.jkubelet.cmd.e2e.cluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jkubelet.cmd.e2e.apiserver.Kubectl;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real Kubernetes v1.20.2 control plane (etcd, kube-apiserver, kube-controller-manager, kube-scheduler) on
 * 127.0.0.1, with the cluster's add-ons (kube-proxy and the cluster DNS behind the {@code kube-dns} Service), started
 * by the project's {@code bin/control-plane} (which builds the binaries from Debian's source once per machine). One is
 * shared by every test class of a test JVM and stopped when the JVM exits: starting one costs about 15 seconds, and
 * each test works on nodes and pods of its own.
 */
public final class ControlPlane {
    private static ControlPlane shared;

    public final Path dir;
    public final Path adminKubeconfig;
    private final Map<String, String> ports;

    private ControlPlane(Path dir, Map<String, String> settings) throws IOException {
        this.dir = dir;
        this.adminKubeconfig = dir.resolve("admin.kubeconfig");
        Map<String, String> env = new java.util.HashMap<>(settings);
        env.putAll(Map.of("JK_APISERVER_PORT", Integer.toString(freePort()), "JK_ETCD_PORT", Integer.toString(freePort()),
                "JK_ETCD_PEER_PORT", Integer.toString(freePort())));
        this.ports = Map.copyOf(env);
    }

    /**
     * A control plane of the caller's own, with settings of {@code bin/control-plane} (e.g.
     * {@code JK_CLUSTER_SIGNING_DURATION}); stopped by {@link #stop()} or when the JVM exits. It runs no add-ons
     * ({@code JK_CLUSTER_ADDONS=none}): kube-proxy owns the host's iptables chains, and the shared control plane's
     * kube-proxy may be running.
     */
    public static ControlPlane startPrivate(Map<String, String> settings) throws IOException {
        Map<String, String> withoutAddons = new java.util.HashMap<>(Map.of("JK_CLUSTER_ADDONS", "none"));
        withoutAddons.putAll(settings);
        ControlPlane cp = new ControlPlane(Files.createTempDirectory("jk-control-plane"), withoutAddons);
        Runtime.getRuntime().addShutdownHook(new Thread(cp::stop, "control-plane-stop"));
        cp.script(1800, "start");
        return cp;
    }

    /** The control plane of this test JVM, started on first use. */
    public static synchronized ControlPlane shared() throws IOException {
        if (shared == null) {
            ControlPlane cp = new ControlPlane(Files.createTempDirectory("jk-control-plane"), Map.of());
            Runtime.getRuntime().addShutdownHook(new Thread(cp::stop, "control-plane-stop"));
            cp.script(1800, "start");
            shared = cp;
        }
        return shared;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    public String url() {
        return "https://127.0.0.1:" + ports.get("JK_APISERVER_PORT");
    }

    /**
     * The flags the cluster gives its kubelets ({@code --cluster-dns} and {@code --cluster-domain} of its DNS), as
     * {@code bin/control-plane} wrote them; none when it runs no add-ons.
     */
    public List<String> kubeletFlags() throws IOException {
        return Files.readAllLines(dir.resolve("kubelet-flags")).stream().filter(l -> !l.isBlank()).toList();
    }

    /** Cluster-admin (system:masters), as the operator's kubectl. */
    public Kubectl kubectl() {
        return new Kubectl(adminKubeconfig);
    }

    public KubernetesClient adminClient() throws IOException {
        return new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(null, Files.readString(adminKubeconfig), adminKubeconfig.toString()))
                .build();
    }

    /** The kubeconfig of node {@code name}: a client certificate for system:node:NAME in group system:nodes. */
    public Path nodeKubeconfig(String name) throws IOException {
        return Path.of(script(60, "node-kubeconfig", name).strip());
    }

    /**
     * A new bootstrap token ({@code bootstrap-token-<id>} in {@code kube-system}, with kubeadm's RBAC for it) and the
     * bootstrap kubeconfig that holds it, as {@code kubeadm join} gives a node.
     */
    public Path bootstrapKubeconfig() throws IOException {
        return Path.of(script(60, "bootstrap-token").strip());
    }

    /** The apiserver stops and comes back at the same address; etcd keeps every object. */
    public void restartApiserver() throws IOException {
        script(120, "restart-apiserver");
    }

    /** Compacts etcd to its current revision, so that a watch from an older resourceVersion gets 410 Gone. */
    public long compact() throws IOException {
        return Long.parseLong(script(60, "compact").strip());
    }

    public void stop() {
        try {
            script(60, "stop");
            deleteTree(dir);
        } catch (IOException e) {
            System.err.println("stopping the control plane: " + e.getMessage());
        }
    }

    /** {@code bin/control-plane COMMAND DIR ARGS...}; its standard output, or an error with its log. */
    private String script(int timeoutSeconds, String command, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(script().toString(), command, dir.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(false);
        pb.environment().putAll(ports);
        Path err = Files.createTempFile("control-plane", ".err");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " timed out after " + timeoutSeconds + "s");
            }
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", cmd) + " failed with " + p.exitValue() + ": " + Files.readString(err));
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted: " + cmd, e);
        } finally {
            Files.deleteIfExists(err);
        }
    }

    /** The project's bin/control-plane ({@code jkubelet.controlPlane}, set by the build). */
    static Path script() {
        Path script = Path.of(System.getProperty("jkubelet.controlPlane", "../bin/control-plane"));
        if (!Files.isExecutable(script)) {
            throw new IllegalStateException(script + " is missing or not executable");
        }
        return script;
    }

    /** Removes {@code root} and everything under it (what the tests left in temporary directories). */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The last lines of a daemon's log (kube-apiserver, etcd, ...), for failure messages. */
    public String logTail(String daemon, int lines) {
        try {
            List<String> all = Files.readAllLines(dir.resolve(daemon + ".log"));
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "";
        }
    }
}
