package io.jkubelet.cmd.bench;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;

import io.jkubelet.cmd.e2e.HostCgroups;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Pod start burst: for N pods of two containers each, the time from writing N static pod manifests at
 * once until every container runs under jkubelet, against raw docker-java create+start of the same
 * sandboxes and containers (sandbox first, then its containers joined to its namespaces; pods in
 * parallel), measured side by side in one run. With {@code --runtime=containerd} the same on containerd: jkubelet on
 * its CRI endpoint against raw CRI calls ({@link ContainerdBurst}). Prints one Markdown row per N with the ratio.
 *
 * <p>Usage: {@code bench/pod-startup [rounds] [N...]} (see the script, which runs both runtimes).
 */
public final class PodStartupBench {
    static final String IMAGE = "jkubelet/busybox:1.0";
    static final String PAUSE = "jkubelet/pause:3.9";
    static final String APP_CMD = "trap 'exit 0' TERM; sleep 3600 & wait";

    public static void main(String[] args) throws Exception {
        String launcher = System.getProperty("jkubelet.launcher", "bin/jkubelet");
        List<String> rest = new ArrayList<>(List.of(args));
        String runtime = "docker";
        if (!rest.isEmpty() && rest.getFirst().startsWith("--runtime=")) {
            runtime = rest.removeFirst().substring("--runtime=".length());
        }
        int rounds = rest.isEmpty() ? 3 : Integer.parseInt(rest.removeFirst());
        List<Integer> sizes = rest.isEmpty() ? List.of(1, 10, 30) : rest.stream().map(Integer::parseInt).toList();
        Burst burst = switch (runtime) {
            case "docker" -> new DockerBurst(docker(), launcher);
            case "containerd" -> new ContainerdBurst(launcher);
            default -> throw new IllegalArgumentException("--runtime=" + runtime + ": docker or containerd");
        };
        if (!Boolean.getBoolean("bench.noHeader")) {
            System.out.println("| runtime | pods | containers | raw calls (median s) | jkubelet (median s) | ratio |");
            System.out.println("|---|---:|---:|---:|---:|---:|");
        }
        for (int n : sizes) {
            List<Double> raw = new ArrayList<>();
            List<Double> agent = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                // Alternate the order so that neither side always runs on a warmer runtime.
                if (r % 2 == 0) {
                    raw.add(burst.raw(n));
                    agent.add(burst.agent(n));
                } else {
                    agent.add(burst.agent(n));
                    raw.add(burst.raw(n));
                }
            }
            double rm = median(raw), am = median(agent);
            System.out.printf(Locale.ROOT, "| %s | %d | %d | %.3f | %.3f | %.2fx |%n", runtime, n, 2 * n, rm, am, am / rm);
            System.err.printf(Locale.ROOT, "%s n=%d raw=%s agent=%s%n", runtime, n, raw, agent);
        }
    }

    /** One runtime's two sides: N pods of two containers started by raw runtime calls, and by jkubelet. */
    interface Burst {
        /** Seconds to start N sandboxes with two containers each through the runtime's own API, pods in parallel. */
        double raw(int n) throws Exception;

        /** Seconds from writing N manifests until jkubelet runs all 2N containers. */
        double agent(int n) throws Exception;
    }

    private record DockerBurst(DockerClient docker, String launcher) implements Burst {
        @Override
        public double raw(int n) throws Exception {
            return rawBurst(docker, n);
        }

        @Override
        public double agent(int n) throws Exception {
            return agentBurst(docker, launcher, n);
        }
    }

    static DockerClient docker() {
        var config = DefaultDockerClientConfig.createDefaultConfigBuilder()
                .withDockerHost("unix:///var/run/docker.sock").build();
        var http = new ApacheDockerHttpClient.Builder().dockerHost(URI.create("unix:///var/run/docker.sock"))
                .maxConnections(100).connectionTimeout(Duration.ofSeconds(10)).responseTimeout(Duration.ofMinutes(2)).build();
        return DockerClientImpl.getInstance(config, http);
    }

    /** Seconds to create and start N sandboxes, each with two containers in its namespaces. */
    static double rawBurst(DockerClient docker, int n) throws Exception {
        String run = "raw-" + UUID.randomUUID().toString().substring(0, 8);
        long start = System.nanoTime();
        try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> fs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int idx = i;
                fs.add(ex.submit(() -> {
                    String sb = docker.createContainerCmd(PAUSE).withName(run + "-pod" + idx)
                            .withLabels(Map.of("jkubelet.bench", run))
                            .withHostConfig(HostConfig.newHostConfig().withIpcMode("shareable")).exec().getId();
                    docker.startContainerCmd(sb).exec();
                    for (String c : List.of("a", "b")) {
                        String id = docker.createContainerCmd(IMAGE).withName(run + "-pod" + idx + "-" + c)
                                .withLabels(Map.of("jkubelet.bench", run)).withCmd("sh", "-c", APP_CMD)
                                .withHostConfig(HostConfig.newHostConfig().withNetworkMode("container:" + sb)
                                        .withIpcMode("container:" + sb)).exec().getId();
                        docker.startContainerCmd(id).exec();
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        }
        double secs = (System.nanoTime() - start) / 1e9;
        removeLabelled(docker, "jkubelet.bench=" + run);
        return secs;
    }

    /** Seconds from writing N manifests until jkubelet runs all 2N containers. */
    static double agentBurst(DockerClient docker, String launcher, int n) throws Exception {
        String node = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        String label = "io.jkubelet.node.name=" + node;
        try {
            return timedAgentBurst(launcher, node, n, () -> docker.listContainersCmd()
                    .withLabelFilter(List.of(label, "io.kubernetes.docker.type=container"))
                    .withStatusFilter(List.of("running")).exec().size() == 2 * n);
        } finally {
            removeNode(docker, node);
        }
    }

    /**
     * Starts an agent of node {@code node} (with {@code extraArgs}), waits until it has started, writes N manifests of
     * two containers at once and returns the seconds until {@code allRunning}; the agent is stopped afterwards, what it
     * made is the caller's to remove.
     */
    static double timedAgentBurst(String launcher, String node, int n, Check allRunning, String... extraArgs)
            throws Exception {
        Path dir = Files.createTempDirectory("jkubelet-bench");
        Path manifests = Files.createDirectories(dir.resolve("manifests"));
        List<String> args = new ArrayList<>(List.of("--read-only-port", "0"));
        args.addAll(List.of(extraArgs));
        Process agent = startAgent(launcher, node, dir, manifests, args.toArray(String[]::new));
        try {
            // Let the agent start fully before the burst: the burst measures pod start, not JVM start.
            waitFor(() -> log(dir).contains("jkubelet started"), Duration.ofSeconds(60), "agent start");
            List<Path> staged = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Path f = dir.resolve("pod" + i + ".yaml");
                Files.writeString(f, """
                        apiVersion: v1
                        kind: Pod
                        metadata: {name: pod%d}
                        spec:
                          containers:
                          - {name: a, image: %s, imagePullPolicy: IfNotPresent, command: ["sh", "-c", "%s"]}
                          - {name: b, image: %s, imagePullPolicy: IfNotPresent, command: ["sh", "-c", "%s"]}
                        """.formatted(i, IMAGE, APP_CMD, IMAGE, APP_CMD));
                staged.add(f);
            }
            long start = System.nanoTime();
            for (Path f : staged) {
                Files.move(f, manifests.resolve(f.getFileName()));
            }
            waitFor(allRunning, Duration.ofMinutes(5), "containers");
            return (System.nanoTime() - start) / 1e9;
        } finally {
            agent.destroy();
            agent.waitFor(15, TimeUnit.SECONDS);
        }
    }

    /**
     * Starts the agent through the launcher with its own node name and directories under {@code dir}, its
     * log in {@code dir/agent.log}; {@code extraArgs} add or override flags.
     */
    static Process startAgent(String launcher, String node, Path dir, Path manifests, String... extraArgs) throws IOException {
        // A cgroup root of the node's own, so that its pod cgroups go with it (removeNode).
        HostCgroups.create(cgroupRoot(node));
        List<String> cmd = new ArrayList<>(List.of(launcher, "--hostname-override", node, "--cgroup-root", "/" + cgroupRoot(node),
                "--pod-manifest-path", manifests.toString(), "--root-dir", dir.resolve("root").toString(),
                "--pod-logs-dir", dir.resolve("pods").toString(), "--container-logs-dir", dir.resolve("containers").toString(),
                "--healthz-port", "0", "--port", Integer.toString(freePort()), "--cert-dir", dir.resolve("pki").toString()));
        cmd.addAll(List.of(extraArgs));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile()).start();
    }

    static int freePort() throws IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    interface Check {
        boolean ok() throws Exception;
    }

    static void waitFor(Check c, Duration timeout, String what) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!c.ok()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    static String log(Path dir) {
        try {
            return Files.readString(dir.resolve("agent.log"));
        } catch (IOException e) {
            return "";
        }
    }

    private static String cgroupRoot(String node) {
        return "jk-bench-" + node;
    }

    /** Removes what a stopped agent of {@link #startAgent} left: its containers, then its cgroups. */
    static void removeNode(DockerClient docker, String node) {
        removeLabelled(docker, "io.jkubelet.node.name=" + node);
        removeCgroups(node);
    }

    /** Removes the cgroups of a stopped agent of {@link #startAgent}, once its containers are gone. */
    static void removeCgroups(String node) {
        HostCgroups.removeTree(cgroupRoot(node));
    }

    static void removeLabelled(DockerClient docker, String label) {
        for (Container c : docker.listContainersCmd().withShowAll(true).withLabelFilter(List.of(label)).exec()) {
            try {
                docker.removeContainerCmd(c.getId()).withForce(true).exec();
            } catch (RuntimeException e) {
                // already gone
            }
        }
    }

    static double median(List<Double> l) {
        List<Double> s = new ArrayList<>(l);
        s.sort(Double::compare);
        return s.get(s.size() / 2);
    }
}
