package io.jkubelet.cmd.bench;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.cadvisor.ProcNode;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.eviction.EvictionConfig;
import io.jkubelet.core.eviction.EvictionManager;
import io.jkubelet.core.eviction.NodeReclaim;
import io.jkubelet.core.eviction.ThresholdParser;
import io.jkubelet.core.runtime.testing.RuntimePods;
import io.jkubelet.core.stats.StatsProvider;
import io.jkubelet.core.util.DaemonThreads;
import io.jkubelet.docker.DockerRuntime;
import io.jkubelet.docker.DockerRuntimeFactory;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The eviction manager's cost per cycle with N pods on the real engine: N sandboxes with one running busybox
 * container each (a third BestEffort, a third Burstable, a third Guaranteed as the manager sees their specs), the
 * real stats provider over the Docker adapter, and one {@code synchronize()} per stats round, as the agent runs it.
 * Two nodes: one whose thresholds are not met (observe and compare only) and one under memory pressure (its
 * {@code memory.available} threshold is the machine's whole memory, so every cycle ranks the N pods, builds the
 * message and evicts the first; the kill is recorded, not done, so the N pods stay). Each cycle's wall time and the
 * CPU time of the thread running it are taken; the stats round before it is measured apart (the agent collects it
 * every 10 s for {@code /stats/summary} whether or not eviction is on). The manager logs as in the agent (INFO, to
 * stderr), which is part of its cost. Everything made is removed afterwards, the pods' log directories too.
 *
 * <p>Usage: {@code bench/eviction [pods] [cycles]} (default 110 30). Prints Markdown.
 */
public final class EvictionBench {
    private static final String BUSYBOX = "jkubelet/busybox:1.0";
    private static final String PAUSE = "jkubelet/pause:3.9";
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        logAsTheAgentDoes();
        int podCount = args.length > 0 ? Integer.parseInt(args[0]) : 110;
        int cycles = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        String node = "bench-evict-" + UUID.randomUUID().toString().substring(0, 8);
        Path root = Files.createTempDirectory("jkubelet-eviction-bench");
        try (DockerRuntime runtime = DockerRuntimeFactory.connect(DockerRuntimeFactory.DEFAULT_ENDPOINT)) {
            try {
                List<Pod> pods = makePods(runtime, node, podCount);
                StatsProvider stats = new StatsProvider(runtime, runtime, node,
                        new StatsProvider.NodePaths(root, root.resolve("pod-logs"), new ProcNode(Path.of("/proc"))),
                        Clock.systemUTC(), StatsProvider.DEFAULT_PERIOD, null, DaemonThreads.scheduler("bench-stats"));
                System.out.println("| node | pods | stats round: wall / CPU (ms) | eviction cycle: wall / CPU (ms) | evicted per cycle |");
                System.out.println("|---|---:|---:|---:|---:|");
                run("not under pressure (memory.available<100Mi)", Map.of("memory.available", "100Mi"), pods, stats,
                        node, cycles);
                run("under memory pressure (memory.available<MemTotal)", Map.of("memory.available", memTotalKi() + "Ki"),
                        pods, stats, node, cycles);
                stats.close();
            } finally {
                RuntimePods.removeAll(runtime, node);
                removeLogDirectories(podCount);
            }
        }
    }

    /** The pods' log directories the runtime made under /var/log/pods (RuntimePods names them there). */
    private static void removeLogDirectories(int count) throws java.io.IOException {
        for (int i = 0; i < count; i++) {
            Path dir = Path.of("/var/log/pods", "default_evict" + i + "_uid-evict" + i);
            if (Files.isDirectory(dir)) {
                try (var paths = Files.walk(dir)) {
                    for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
        }
    }

    /** N sandboxes with a running container each, made 8 at a time, and the pods the manager sees for them. */
    private static List<Pod> makePods(DockerRuntime runtime, String node, int count) throws Exception {
        RuntimePods runtimePods = new RuntimePods(runtime, node, PAUSE);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> made = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = "evict" + i;
            made.add(pool.submit(() -> runtimePods.sandbox(name).running("app", 0, BUSYBOX)));
            pods.add(pod(name, i % 3));
        }
        for (Future<?> f : made) {
            f.get();
        }
        pool.shutdown();
        return pods;
    }

    /** A pod from the apiserver: BestEffort (0), Burstable (1) or Guaranteed (2). */
    private static Pod pod(String name, int qos) {
        var resources = new io.fabric8.kubernetes.api.model.ResourceRequirements();
        if (qos >= 1) {
            resources.setRequests(Map.of("cpu", new Quantity("10m"), "memory", new Quantity("16Mi")));
        }
        if (qos == 2) {
            resources.setLimits(Map.of("cpu", new Quantity("10m"), "memory", new Quantity("16Mi")));
        }
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .addToAnnotations("kubernetes.io/config.source", "api").endMetadata()
                .withNewSpec().withContainers(new ContainerBuilder().withName("app").withImage(BUSYBOX)
                        .withResources(resources).build()).withTerminationGracePeriodSeconds(30L).endSpec().build();
    }

    private static void run(String name, Map<String, String> hard, List<Pod> pods, StatsProvider stats, String node,
                            int cycles) {
        EvictionConfig config = new EvictionConfig(ThresholdParser.parseThresholdConfig(List.of(), hard, Map.of(),
                Map.of(), Map.of()), EvictionConfig.DEFAULT_PRESSURE_TRANSITION_PERIOD, 0);
        RecordedKills kills = new RecordedKills(pods);
        EventRecorder noEvents = (ref, type, reason, message) -> { };
        EvictionManager manager = new EvictionManager(config, Clock.systemUTC(), stats::summary, stats::hasDedicatedImageFs,
                NodeReclaim.NONE, kills, noEvents, node);
        for (int i = 0; i < 3; i++) { // warm-up: loading and compiling the code
            stats.summary(true);
            manager.synchronize();
        }
        kills.evicted = 0;
        long statsWall = 0;
        long statsCpu = 0;
        long cycleWall = 0;
        long cycleCpu = 0;
        for (int i = 0; i < cycles; i++) {
            long w0 = System.nanoTime();
            long c0 = THREADS.getCurrentThreadCpuTime();
            stats.summary(true);
            long w1 = System.nanoTime();
            long c1 = THREADS.getCurrentThreadCpuTime();
            manager.synchronize();
            cycleWall += System.nanoTime() - w1;
            cycleCpu += THREADS.getCurrentThreadCpuTime() - c1;
            statsWall += w1 - w0;
            statsCpu += c1 - c0;
        }
        System.out.printf(Locale.ROOT, "| %s | %d | %.1f / %.1f | %.2f / %.2f | %.1f |%n", name, pods.size(),
                ms(statsWall, cycles), ms(statsCpu, cycles), ms(cycleWall, cycles), ms(cycleCpu, cycles),
                (double) kills.evicted / cycles);
    }

    private static double ms(long nanos, int cycles) {
        return nanos / 1e6 / cycles;
    }

    /** The pods stay active: a kill is only counted. */
    private static final class RecordedKills implements EvictionManager.Pods {
        private final List<Pod> pods;
        int evicted;

        RecordedKills(List<Pod> pods) {
            this.pods = pods;
        }

        @Override
        public List<Pod> active() {
            return pods;
        }

        @Override
        public void kill(Pod pod, Long gracePeriodOverride, Consumer<PodStatus> statusFn) {
            statusFn.accept(new PodStatus());
            evicted++;
        }

        @Override
        public boolean cleanedUp(Pod pod) {
            return true;
        }
    }

    /**
     * The agent's logging (its logback.xml: INFO, one line per record, to stderr), which the test classpath's
     * logback-test.xml (WARN, stdout) would otherwise replace: the manager's log lines are part of its cost.
     */
    private static void logAsTheAgentDoes() throws Exception {
        var context = (ch.qos.logback.classic.LoggerContext) org.slf4j.LoggerFactory.getILoggerFactory();
        context.reset();
        var configurator = new ch.qos.logback.classic.joran.JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(EvictionBench.class.getResource("/logback.xml"));
    }

    private static long memTotalKi() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
            if (line.startsWith("MemTotal:")) {
                return Long.parseLong(line.replaceAll("\\D+", ""));
            }
        }
        throw new IllegalStateException("no MemTotal in /proc/meminfo");
    }

    private EvictionBench() {
    }
}
