package io.jkubelet.cmd.bench;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;

import io.jkubelet.cmd.e2e.HostCgroups;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * jkubelet beside the upstream kubelet v1.20.2 (dockershim), one after the other on the bench's own Docker engine
 * (bin/lib/bench-engine.sh): resident memory and CPU idle and with N static pods, process start until
 * {@code /healthz} answers and until the one static pod's container runs, and pod bursts against raw docker-java
 * create+start of the same sandboxes and containers ({@link PodStartupBench#rawBurst}). Prints a Markdown table
 * with both agents and the jkubelet / upstream ratios; per-round figures go to stderr.
 *
 * <p>System properties: {@code jkubelet.launcher} (bin/jkubelet), {@code upstream.kubelet} (the built binary),
 * {@code bench.docker} (the engine's endpoint), {@code bench.rounds}, {@code bench.footprintPods} (comma list),
 * {@code bench.bursts} (comma lists, or none), {@code bench.settle} and {@code bench.sample} (seconds),
 * {@code bench.burstWait} (seconds from /healthz answering to a burst).
 */
public final class ReferenceBench {
    static final String ENDPOINT = System.getProperty("bench.docker", "unix:///run/jk-bench/docker.sock");
    static final String APP_CMD = PodStartupBench.APP_CMD;
    static final long HZ = 100; // USER_HZ: /proc/<pid>/stat counts clock ticks of 1/100 s on Linux.
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    /**
     * How to start one agent: its command, given its scratch directory, manifest directory, healthz port and
     * read-only port (0: none).
     */
    interface Agent {
        String name();

        List<String> command(String node, Path dir, Path manifests, int healthzPort, int readOnlyPort) throws IOException;
    }

    static final class Jkubelet implements Agent {
        final String launcher = System.getProperty("jkubelet.launcher", "bin/jkubelet");

        public String name() {
            return "jkubelet";
        }

        public List<String> command(String node, Path dir, Path manifests, int healthz, int readOnly) throws IOException {
            // A cgroup root of the node's own (as PodStartupBench), so that its pod cgroups go with it (stop).
            HostCgroups.create("jk-bench-" + node);
            return List.of(launcher, "--hostname-override", node, "--container-runtime-endpoint", ENDPOINT,
                    "--cgroup-root", "/jk-bench-" + node,
                    "--pod-manifest-path", manifests.toString(), "--root-dir", dir.resolve("root").toString(),
                    "--pod-logs-dir", dir.resolve("pods").toString(),
                    "--container-logs-dir", dir.resolve("containers").toString(),
                    "--pod-infra-container-image", PodStartupBench.PAUSE,
                    "--healthz-port", Integer.toString(healthz), "--read-only-port", Integer.toString(readOnly),
                    "--port", Integer.toString(PodStartupBench.freePort()), "--cert-dir", dir.resolve("pki").toString());
        }
    }

    static final class Upstream implements Agent {
        final String binary = System.getProperty("upstream.kubelet");

        public String name() {
            return "upstream";
        }

        public List<String> command(String node, Path dir, Path manifests, int healthz, int readOnly) throws IOException {
            // Standalone (no --kubeconfig) on cgroup v1 as root without CAP_SYS_RESOURCE: no QoS cgroups and no
            // node-allocatable enforcement (it needs them), no swap check, no eviction or image GC thresholds
            // (the shared disk's fill would evict the bench's pods), dockershim's socket and state in the
            // scratch directory so that it never meets another kubelet's.
            // --docker is cAdvisor's own endpoint (a flag it registers in the kubelet): without it cAdvisor watches
            // the main engine, knows the bench engine's containers only as raw cgroups, and the summary has no pods.
            return List.of(binary, "--container-runtime=docker", "--docker-endpoint", ENDPOINT, "--docker", ENDPOINT,
                    "--container-runtime-endpoint", "unix://" + dir.resolve("dockershim.sock"),
                    "--experimental-dockershim-root-directory", dir.resolve("dockershim").toString(),
                    "--pod-manifest-path", manifests.toString(), "--root-dir", dir.resolve("root").toString(),
                    "--cert-dir", dir.resolve("pki").toString(), "--hostname-override", node,
                    "--cgroups-per-qos=false", "--enforce-node-allocatable=", "--fail-swap-on=false",
                    "--cgroup-driver=cgroupfs", "--eviction-hard=", "--image-gc-high-threshold=100",
                    "--pod-infra-container-image", PodStartupBench.PAUSE,
                    "--healthz-port", Integer.toString(healthz), "--read-only-port", Integer.toString(readOnly),
                    "--port", Integer.toString(PodStartupBench.freePort()));
        }
    }

    /** A started agent and what it leaves behind. */
    record Run(Agent agent, String node, Path dir, Path manifests, int healthz, Process process, long startNanos) {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.getInteger("bench.rounds", 3);
        List<Integer> footprint = ints(System.getProperty("bench.footprintPods", "0,30"));
        List<Integer> bursts = ints(System.getProperty("bench.bursts", "1,10,30"));
        int settle = Integer.getInteger("bench.settle", 20);
        int sample = Integer.getInteger("bench.sample", 60);
        DockerClient docker = docker();
        List<Agent> agents = List.of(new Upstream(), new Jkubelet());
        Map<String, double[]> rows = new LinkedHashMap<>(); // measure -> {upstream, jkubelet}

        for (int n : footprint) {
            for (int a = 0; a < agents.size(); a++) {
                double[] m = footprint(docker, agents.get(a), n, settle, sample);
                rows.computeIfAbsent("RSS, " + n + " pods (MiB)", k -> new double[2])[a] = m[0];
                rows.computeIfAbsent("CPU, " + n + " pods (cores, mean over " + sample + " s)", k -> new double[2])[a] = m[1];
            }
        }
        for (int a = 0; a < agents.size(); a++) {
            List<Double> healthz = new ArrayList<>(), pod = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                double[] m = firstPod(docker, agents.get(a));
                healthz.add(m[0]);
                pod.add(m[1]);
            }
            System.err.printf(Locale.ROOT, "%s start: healthz %s, first pod %s%n", agents.get(a).name(), healthz, pod);
            rows.computeIfAbsent("process start → `/healthz` answers (median s)", k -> new double[2])[a] =
                    PodStartupBench.median(healthz);
            rows.computeIfAbsent("process start → the static pod's container running (median s)", k -> new double[2])[a] =
                    PodStartupBench.median(pod);
        }
        List<String> spread = new ArrayList<>();
        for (int n : bursts) {
            List<List<Double>> agentTimes = List.of(new ArrayList<>(), new ArrayList<>());
            List<List<Double>> rawTimes = List.of(new ArrayList<>(), new ArrayList<>());
            for (int r = 0; r < rounds; r++) {
                for (int a = 0; a < agents.size(); a++) {
                    // Each agent's burst beside a raw burst of its own, order alternating by round, so that both
                    // ratios see the engine in the same state.
                    int ai = (a + r) % agents.size();
                    if (r % 2 == 0) {
                        rawTimes.get(ai).add(PodStartupBench.rawBurst(docker, n));
                        agentTimes.get(ai).add(burst(docker, agents.get(ai), n));
                    } else {
                        agentTimes.get(ai).add(burst(docker, agents.get(ai), n));
                        rawTimes.get(ai).add(PodStartupBench.rawBurst(docker, n));
                    }
                }
            }
            for (int a = 0; a < agents.size(); a++) {
                System.err.printf(Locale.ROOT, "%s burst %d: agent %s raw %s%n", agents.get(a).name(), n,
                        agentTimes.get(a), rawTimes.get(a));
                rows.computeIfAbsent("burst of " + n + " pods: agent / raw docker-java (medians)", k -> new double[2])[a] =
                        PodStartupBench.median(agentTimes.get(a)) / PodStartupBench.median(rawTimes.get(a));
                // Each round's agent burst ran next to its raw burst: their ratio cancels what the machine's load
                // did to that round, so its spread says how well the rounds separate the agents.
                List<Double> perRound = new ArrayList<>();
                for (int r = 0; r < rounds; r++) {
                    perRound.add(agentTimes.get(a).get(r) / rawTimes.get(a).get(r));
                }
                spread.add(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s |", n, agents.get(a).name(),
                        range(agentTimes.get(a)), range(rawTimes.get(a)), range(perRound)));
            }
        }
        System.out.println("| measure | upstream kubelet v1.20.2 | jkubelet | jkubelet / upstream |");
        System.out.println("|---|---:|---:|---:|");
        rows.forEach((k, v) -> System.out.printf(Locale.ROOT, "| %s | %s | %s | %.2f |%n", k, fmt(v[0]), fmt(v[1]), v[1] / v[0]));
        if (!spread.isEmpty()) {
            System.out.printf("%nBursts over %d rounds: median (min-max)%n%n", rounds);
            System.out.println("| pods | agent | agent (s) | raw docker-java beside it (s) | agent / raw, per round |");
            System.out.println("|---:|---|---:|---:|---:|");
            spread.forEach(System.out::println);
        }
    }

    /** "median (min-max)" of the values. */
    static String range(List<Double> values) {
        return String.format(Locale.ROOT, "%.2f (%.2f-%.2f)", PodStartupBench.median(values),
                values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
                values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN));
    }

    static String fmt(double v) {
        return v >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.3f", v);
    }

    /** {RSS in MiB, CPU in cores} of the agent with n pods of two containers, after they run and settle. */
    static double[] footprint(DockerClient docker, Agent agent, int n, int settle, int sample) throws Exception {
        Run run = start(agent, n);
        try {
            PodStartupBench.waitFor(() -> running(docker) >= 2 * n, Duration.ofMinutes(5), n + " pods of " + agent.name());
            Thread.sleep(settle * 1000L);
            long pid = run.process().pid();
            long t0 = cpuTicks(pid);
            Thread.sleep(sample * 1000L);
            long t1 = cpuTicks(pid);
            double rss = rssKiB(pid) / 1024.0;
            double cpu = (t1 - t0) / (double) HZ / sample;
            System.err.printf(Locale.ROOT, "%s %d pods: RSS %.1f MiB, CPU %.4f cores%n", agent.name(), n, rss, cpu);
            return new double[] {rss, cpu};
        } finally {
            stop(docker, run);
        }
    }

    /** {seconds from process start to /healthz 200, to the one static pod's container running}. */
    static double[] firstPod(DockerClient docker, Agent agent) throws Exception {
        Run run = start(agent, 1);
        try {
            double healthz = -1, pod = -1;
            long deadline = run.startNanos() + TimeUnit.SECONDS.toNanos(60);
            while ((healthz < 0 || pod < 0) && System.nanoTime() < deadline) {
                if (healthz < 0 && healthy(run.healthz())) {
                    healthz = (System.nanoTime() - run.startNanos()) / 1e9;
                }
                if (pod < 0 && running(docker) >= 1) {
                    pod = (System.nanoTime() - run.startNanos()) / 1e9;
                }
                Thread.sleep(10);
            }
            if (healthz < 0 || pod < 0) {
                throw new IllegalStateException(agent.name() + " did not start its pod within 60 s; see " + run.dir());
            }
            return new double[] {healthz, pod};
        } finally {
            stop(docker, run);
        }
    }

    /** Seconds from moving n manifests into the running agent's directory until its 2n containers run. */
    static double burst(DockerClient docker, Agent agent, int n) throws Exception {
        Run run = start(agent, 0);
        try {
            // The burst measures pod start, not agent start: wait until /healthz answers, then the same time
            // for both (bench.burstWait). /healthz answers before either agent is ready for pods: upstream's sync
            // loop waits for its first runtime status, jkubelet's healthz is served before its pod workers start
            // (with 1 s, jkubelet's single-pod bursts took 0.86-1.62 s against 0.39-0.44 s raw).
            PodStartupBench.waitFor(() -> healthy(run.healthz()), Duration.ofSeconds(60), agent.name() + " healthz");
            Thread.sleep(Integer.getInteger("bench.burstWait", 5) * 1000L);
            List<Path> staged = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                staged.add(Files.writeString(run.dir().resolve("pod" + i + ".yaml"), manifest("pod" + i)));
            }
            long start = System.nanoTime();
            for (Path f : staged) {
                Files.move(f, run.manifests().resolve(f.getFileName()));
            }
            PodStartupBench.waitFor(() -> running(docker) >= 2 * n, Duration.ofMinutes(5), n + " pods of " + agent.name());
            return (System.nanoTime() - start) / 1e9;
        } finally {
            stop(docker, run);
        }
    }

    static String manifest(String name) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s}
                spec:
                  containers:
                  - {name: a, image: %s, imagePullPolicy: IfNotPresent, command: ["sh", "-c", "%s"]}
                  - {name: b, image: %s, imagePullPolicy: IfNotPresent, command: ["sh", "-c", "%s"]}
                """.formatted(name, PodStartupBench.IMAGE, APP_CMD, PodStartupBench.IMAGE, APP_CMD);
    }

    /** Starts the agent with n manifests already in place (n = 1: one pod of one container), no read-only port. */
    static Run start(Agent agent, int n) throws Exception {
        return start(agent, n, 0);
    }

    /** {@link #start(Agent, int)} with the read-only port (0: none). */
    static Run start(Agent agent, int n, int readOnlyPort) throws Exception {
        String node = agent.name() + "-" + UUID.randomUUID().toString().substring(0, 8);
        Path dir = Files.createTempDirectory("jk-reference-");
        Path manifests = Files.createDirectories(dir.resolve("manifests"));
        if (n == 1) {
            Files.writeString(manifests.resolve("first.yaml"), """
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: first}
                    spec:
                      containers:
                      - {name: a, image: %s, imagePullPolicy: IfNotPresent, command: ["sh", "-c", "%s"]}
                    """.formatted(PodStartupBench.IMAGE, APP_CMD));
        } else {
            for (int i = 0; i < n; i++) {
                Files.writeString(manifests.resolve("pod" + i + ".yaml"), manifest("pod" + i));
            }
        }
        int healthz = PodStartupBench.freePort();
        List<String> cmd = agent.command(node, dir, manifests, healthz, readOnlyPort);
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile()).start();
        return new Run(agent, node, dir, manifests, healthz, p, t0);
    }

    /** Stops the agent, then removes every container of the bench engine and the upstream's pod logs. */
    static void stop(DockerClient docker, Run run) throws Exception {
        run.process().destroy();
        if (!run.process().waitFor(20, TimeUnit.SECONDS)) {
            run.process().destroyForcibly().waitFor();
        }
        for (Container c : docker.listContainersCmd().withShowAll(true).exec()) {
            try {
                docker.removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec();
            } catch (RuntimeException e) {
                // already gone
            }
        }
        // The upstream kubelet writes pod logs under /var/log/pods/<namespace>_<pod>-<node>_<uid> (not
        // configurable in v1.20); the node name is unique to the run.
        Path logs = Path.of("/var/log/pods");
        if (Files.isDirectory(logs)) {
            try (Stream<Path> s = Files.list(logs)) {
                for (Path p : s.filter(p -> p.getFileName().toString().contains("-" + run.node() + "_")).toList()) {
                    deleteTree(p);
                }
            }
        }
        if (run.agent() instanceof Jkubelet) {
            PodStartupBench.removeCgroups(run.node());
        }
        unmountUnder(run.dir());
        if (!Boolean.getBoolean("bench.keep")) {
            deleteTree(run.dir());
        }
    }

    /**
     * Unmounts what the agent left mounted under its directory: the upstream kubelet bind-mounts its root
     * directory onto itself to make it rshared, and that mount outlives the process.
     */
    static void unmountUnder(Path dir) throws Exception {
        List<String> points = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            String point = line.split(" ")[4];
            if (point.startsWith(dir.toString() + "/")) {
                points.add(point);
            }
        }
        points.sort(Comparator.comparingInt(String::length).reversed());
        for (String point : points) {
            new ProcessBuilder("umount", "-l", point).inheritIO().start().waitFor();
        }
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        }
    }

    static int running(DockerClient docker) {
        return docker.listContainersCmd().withLabelFilter(List.of("io.kubernetes.docker.type=container"))
                .withStatusFilter(List.of("running")).exec().size();
    }

    static boolean healthy(int port) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
                    .timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
    }

    static long rssKiB(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no VmRSS for " + pid);
    }

    static List<Integer> ints(String csv) {
        List<Integer> l = new ArrayList<>();
        for (String s : csv.split(",")) {
            if (!s.isBlank() && !s.equals("none")) {
                l.add(Integer.parseInt(s.trim()));
            }
        }
        return l;
    }

    static DockerClient docker() {
        var config = DefaultDockerClientConfig.createDefaultConfigBuilder().withDockerHost(ENDPOINT).build();
        var http = new ApacheDockerHttpClient.Builder().dockerHost(URI.create(ENDPOINT)).maxConnections(100)
                .connectionTimeout(Duration.ofSeconds(10)).responseTimeout(Duration.ofMinutes(2)).build();
        return DockerClientImpl.getInstance(config, http);
    }
}
