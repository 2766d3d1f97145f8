package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * The built jkubelet jar run as a process, as an operator runs it: its own node name (so that its
 * containers are its own), root, log and manifest directories under a test folder, and free ports. The same story
 * can run against the upstream kubelet v1.20.2 built from Debian's source ({@link #upstreamClusterNode}), with the
 * same directories, ports and settings, so that a test shows what both kubelets do.
 */
final class Agent implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    final Path dir;
    final String nodeName;
    final Path manifests;
    final Path podLogs;
    final Path containerLogs;
    final Path log;
    final int readOnlyPort;
    final int healthzPort;
    final int port;
    /** The agent's own cgroup root: its pods' cgroups stay apart from other agents' and go with the test. */
    final String cgroupRoot;
    private final List<String> extraArgs;
    /** The upstream kubelet's runtime, {@code docker} or {@code containerd}; null for jkubelet. */
    private final String upstreamRuntime;
    /** Variables set in the agent's environment on top of the test's (e.g. {@code DBUS_SYSTEM_BUS_ADDRESS}). */
    final java.util.Map<String, String> environment = new java.util.HashMap<>();
    private Process process;
    private int starts;

    Agent(Path dir, String nodeName, List<String> extraArgs) throws IOException {
        this(dir, nodeName, extraArgs, null);
    }

    private Agent(Path dir, String nodeName, List<String> extraArgs, String upstreamRuntime) throws IOException {
        this.upstreamRuntime = upstreamRuntime;
        this.dir = dir;
        this.nodeName = nodeName;
        this.manifests = Files.createDirectories(dir.resolve("manifests"));
        this.podLogs = dir.resolve("logs/pods");
        this.containerLogs = dir.resolve("logs/containers");
        this.log = dir.resolve("agent.log");
        this.readOnlyPort = freePort();
        this.healthzPort = freePort();
        this.port = freePort();
        this.cgroupRoot = "/jk-e2e-" + nodeName;
        this.extraArgs = List.copyOf(extraArgs);
    }

    /**
     * An agent that joins the cluster of {@code kubeconfig} (a cluster node, not a standalone one): the apiserver is
     * its pod source and it registers its node there, as {@code kubelet --kubeconfig} does.
     */
    static Agent clusterNode(Path dir, String nodeName, Path kubeconfig, String... extraArgs) throws IOException {
        List<String> args = new ArrayList<>(List.of("--kubeconfig", kubeconfig.toString()));
        args.addAll(List.of(extraArgs));
        return new Agent(dir, nodeName, args);
    }

    /**
     * The upstream kubelet v1.20.2 ({@code kubelet} of {@code $JK_KUBE_BIN}) as a node of the cluster of
     * {@code kubeconfig}, on Docker through its dockershim or on the system containerd through the CRI; with the
     * same directories, ports and settings as {@link #clusterNode}.
     */
    static Agent upstreamClusterNode(Path dir, String nodeName, Path kubeconfig, boolean containerd, String... extraArgs)
            throws IOException {
        List<String> args = new ArrayList<>(List.of("--kubeconfig", kubeconfig.toString()));
        args.addAll(List.of(extraArgs));
        return upstream(dir, nodeName, containerd, args);
    }

    /** The upstream kubelet v1.20.2 standalone (static pods only), on Docker or on the system containerd. */
    static Agent upstream(Path dir, String nodeName, boolean containerd, List<String> extraArgs) throws IOException {
        return new Agent(dir, nodeName, extraArgs, containerd ? "containerd" : "docker");
    }

    /** "jkubelet", or "upstream kubelet (docker|containerd)". */
    String kubelet() {
        return upstreamRuntime == null ? "jkubelet" : "upstream kubelet (" + upstreamRuntime + ")";
    }

    static String jar() {
        String jar = System.getProperty("jkubelet.jar", "target/jkubelet.jar");
        if (!Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("the built jar " + jar + " is missing: run `mvn package` first");
        }
        return jar;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    List<String> command() {
        List<String> cmd = new ArrayList<>();
        if (upstreamRuntime == null) {
            cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-jar",
                    jar(), "--pod-logs-dir", podLogs.toString(), "--container-logs-dir", containerLogs.toString()));
        } else {
            cmd.addAll(upstreamCommand());
        }
        cmd.addAll(List.of(
                "--hostname-override", nodeName,
                "--pod-manifest-path", manifests.toString(),
                "--root-dir", dir.resolve("root").toString(),
                "--read-only-port", Integer.toString(readOnlyPort),
                "--healthz-port", Integer.toString(healthzPort),
                "--port", Integer.toString(port),
                "--cert-dir", dir.resolve("pki").toString(),
                "--file-check-frequency", "5s",
                "--cgroup-root", cgroupRoot,
                // The engine is shared: an agent under test must not garbage-collect the images other users rely on
                // (image GC is tested on its own, on images it made).
                "--image-gc-high-threshold", "100",
                // For the same reason no disk threshold: under disk pressure the eviction manager deletes every unused
                // image. Memory keeps its default; a test that wants disk pressure adds its own thresholds.
                "--eviction-hard", "memory.available<100Mi",
                "--v", "4"));
        cmd.addAll(extraArgs);
        return cmd;
    }

    /**
     * The upstream kubelet's own part of the command: its runtime, cgroupfs (its v1.20 default, as jkubelet's), no swap
     * check (this machine has swap), and on Docker dockershim's socket and state in the test's folder so that it never
     * meets another kubelet's; jkubelet's pause image, which every test machine has (upstream's own default,
     * k8s.gcr.io/pause:3.2, cannot be pulled here). Upstream keeps pod logs in /var/log/pods, which it has no flag for.
     */
    private List<String> upstreamCommand() {
        List<String> cmd = new ArrayList<>(List.of(KubeBinaries.bin().resolve("kubelet").toString(),
                "--cgroup-driver", "cgroupfs", "--fail-swap-on=false",
                "--pod-infra-container-image", io.jkubelet.cmd.KubeletFlags.DEFAULT_POD_INFRA_CONTAINER_IMAGE));
        if (upstreamRuntime.equals("docker")) {
            cmd.addAll(List.of("--container-runtime", "docker",
                    "--container-runtime-endpoint", "unix://" + dir.resolve("dockershim.sock"),
                    "--experimental-dockershim-root-directory", dir.resolve("dockershim").toString()));
        } else {
            cmd.addAll(List.of("--container-runtime", "remote", "--container-runtime-endpoint", ContainerdTestBase.ENDPOINT));
        }
        return cmd;
    }

    Agent start() throws IOException {
        return start(Duration.ofSeconds(30));
    }

    /** As {@link #start()}, waiting up to {@code limit} for the ports (a bootstrapping node first waits for its certificate). */
    Agent start(Duration limit) throws IOException {
        starts++;
        HostCgroups.create(cgroupRoot.substring(1));
        if (upstreamRuntime != null) {
            // A new cpuset cgroup of cgroup v1 has no CPUs and no memory nodes, and the upstream kubelet's pod
            // cgroups below it would inherit none: an operator gives the root its parent's, as jkubelet does itself.
            HostCgroups.cpusetFromParent(cgroupRoot.substring(1));
        }
        Files.writeString(log, "---- start " + starts + "\n", java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        ProcessBuilder builder = new ProcessBuilder(command()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        process = builder.start();
        await().atMost(limit).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException(kubelet() + " exited with " + process.exitValue() + ":\n" + logText());
            }
            // The healthz port answers first (ping only); the read-only port comes up once the kubelet runs.
            return healthz().filter("ok"::equals).isPresent()
                    && get(readOnlyPort, "/healthz").filter("ok"::equals).isPresent();
        });
        return this;
    }

    /** The agent's process ID, for what it holds open ({@code /proc/<pid>/fd}). */
    long pid() {
        return process.pid();
    }

    /** SIGKILL: nothing of the agent's shutdown runs. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** SIGTERM; returns the exit code once the agent has exited. */
    int terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException(kubelet() + " did not exit after SIGTERM:\n" + logText());
        }
        return process.exitValue();
    }

    /** SIGTERM and wait for the agent to exit. */
    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    /** Removes the agent's cgroup tree; after {@link #stop} and once its containers are gone. */
    void removeCgroups() {
        HostCgroups.removeTree(cgroupRoot.substring(1));
    }

    String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "";
        }
    }

    Optional<String> healthz() {
        return get(healthzPort, "/healthz");
    }

    Optional<String> get(int port, String path) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return Optional.of(r.body());
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    List<Pod> pods() {
        return parsePods(get(readOnlyPort, "/pods").orElseThrow(() -> new IllegalStateException("GET /pods failed")));
    }

    static List<Pod> parsePods(String json) {
        try {
            // fabric8 8's model binds with Jackson 3 (see PodCodec).
            // The kubelet writes an empty list as "items":null, as Go does.
            List<Pod> items = io.jkubelet.core.config.PodCodec.mapper().readValue(json, PodList.class).getItems();
            return items == null ? List.of() : items;
        } catch (RuntimeException e) {
            throw new IllegalStateException("/pods is not a PodList: " + e.getMessage() + "\n" + json, e);
        }
    }

    /** The pod named {@code <name>-<node>}, as static pods are named. */
    Optional<Pod> pod(String name) {
        String full = name + "-" + nodeName;
        return pods().stream().filter(p -> p.getMetadata().getName().equals(full)).findFirst();
    }

    void writeManifest(String file, String yaml) throws IOException {
        Path tmp = dir.resolve("." + file + ".tmp");
        Files.writeString(tmp, yaml);
        Files.move(tmp, manifests.resolve(file), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    void removeManifest(String file) throws IOException {
        Files.deleteIfExists(manifests.resolve(file));
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
