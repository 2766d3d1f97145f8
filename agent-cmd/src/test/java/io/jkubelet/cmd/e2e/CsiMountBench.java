package io.jkubelet.cmd.e2e;

import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.storage.CSIDriverBuilder;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.jkubelet.cmd.e2e.cluster.ControlPlane;
import io.jkubelet.csi.TestCsiDriver;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.awaitility.Awaitility.await;

/**
 * A pod on a CSI volume, from bound claim to Running: for each kubelet in one run on the real control plane
 * ({@link ControlPlane#shared()}), the upstream kubelet v1.20.2 on Docker first, then jkubelet on Docker (and on the
 * system containerd when asked), the seconds from the pod's create call to the moment a watch on the pod sees phase
 * {@code Running}, for a pod on a PersistentVolumeClaim of {@link TestCsiDriver} (staged, then published) and, in the
 * same round, for the same pod on an emptyDir: the difference is what the CSI volume costs the pod's start. The
 * driver, the {@code CSIDriver} object ({@code attachRequired: false}) and the pre-bound PersistentVolume are set up as
 * {@link CsiDriverIT} sets them up; the claim is Bound before any round. After each pod is deleted (grace period 1 s),
 * the next round waits until it is gone and, for the CSI pod, until the driver saw NodeUnpublishVolume and
 * NodeUnstageVolume, so that every CSI pod is staged afresh.
 *
 * <p>The kubelets run one after the other, not interleaved within a round: both would share one Docker engine, and
 * jkubelet labels its containers as dockershim does, so the upstream kubelet would take jkubelet's pods for its own
 * orphans and kill them. Each kubelet first runs untimed warm-up rounds ({@code bench.warmup}, 1), so that one-off
 * costs of a freshly started kubelet (jkubelet's JIT, either kubelet's first connection to the driver) stay out of the
 * figures. Within a round the CSI and the emptyDir pod alternate in order.
 *
 * <p>Usage: {@code bench/csi-mount [rounds] [containerd]} (default 5 rounds). Prints a Markdown table (stdout) and
 * the per-round figures (stderr). Whatever happens, including Ctrl-C, the node under measurement is stopped and its
 * pods, claim, volume, containers, mounts and node objects removed; the control plane stops with the JVM.
 */
public final class CsiMountBench {
    /** Long enough for a pod's start on a loaded 2-core machine; a pod that takes longer is a failure, not a figure. */
    private static final Duration POD_DEADLINE = Duration.ofSeconds(120);
    private static final String NAMESPACE = "default";
    private static final String STORAGE_CLASS = "csi-bench";

    /** The node being measured, for the shutdown hook of an interrupted run. */
    private static volatile MeasuredNode current;

    private CsiMountBench() {}

    /** A kubelet the bench measures, with its row label and the prefix of its node's names. */
    enum Kubelet {
        UPSTREAM_DOCKER("upstream kubelet v1.20.2 (Docker)", "up"),
        JKUBELET_DOCKER("jkubelet (Docker)", "jk"),
        JKUBELET_CONTAINERD("jkubelet (containerd)", "jkc");

        final String label;
        final String prefix;

        Kubelet(String label, String prefix) {
            this.label = label;
            this.prefix = prefix;
        }

        ClusterKubelet node(ControlPlane cluster, Path dir, String name) throws java.io.IOException {
            return switch (this) {
                case UPSTREAM_DOCKER -> ClusterKubelet.upstreamOnDocker(cluster, dir, name);
                case JKUBELET_DOCKER -> ClusterKubelet.onDocker(cluster, dir, name);
                case JKUBELET_CONTAINERD -> ClusterKubelet.onContainerd(cluster, dir, name);
            };
        }
    }

    /** One kubelet's measured rounds, in seconds: the CSI pod's and the emptyDir pod's of each round. */
    record Rounds(List<Double> csi, List<Double> emptyDir) {
        List<Double> differences() {
            List<Double> d = new ArrayList<>();
            for (int i = 0; i < csi.size(); i++) {
                d.add(csi.get(i) - emptyDir.get(i));
            }
            return d;
        }
    }

    public static void main(String[] args) {
        int status = 0;
        try {
            run(args);
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
        }
        // gRPC's and the apiserver client's threads must not keep the JVM; the shutdown hooks stop the control plane.
        System.exit(status);
    }

    private static void run(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int warmup = Integer.getInteger("bench.warmup", 1);
        List<Kubelet> kubelets = new ArrayList<>(List.of(Kubelet.UPSTREAM_DOCKER, Kubelet.JKUBELET_DOCKER));
        if (args.length > 1) {
            if (!args[1].equals("containerd")) {
                throw new IllegalArgumentException("usage: CsiMountBench [rounds] [containerd]; got " + List.of(args));
            }
            kubelets.add(Kubelet.JKUBELET_CONTAINERD);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            MeasuredNode node = current;
            if (node != null) {
                node.close();
            }
        }, "csi-bench-cleanup"));

        ControlPlane cluster = ControlPlane.shared();
        // Short: the driver's registration socket below it has at most 107 bytes.
        Path dir = Files.createTempDirectory("jk-csi-bench");
        Map<Kubelet, Rounds> results = new LinkedHashMap<>();
        try (KubernetesClient client = cluster.adminClient()) {
            client.storage().v1().csiDrivers().resource(new CSIDriverBuilder().withNewMetadata()
                    .withName(CsiDriverIT.DRIVER).endMetadata().withNewSpec().withAttachRequired(false)
                    .withPodInfoOnMount(true).withVolumeLifecycleModes("Persistent").endSpec().build())
                    .createOr(c -> c.update());
            try {
                for (Kubelet kubelet : kubelets) {
                    results.put(kubelet, measure(client, cluster, dir, kubelet, warmup, rounds));
                }
            } finally {
                client.storage().v1().csiDrivers().withName(CsiDriverIT.DRIVER).delete();
            }
        } finally {
            ControlPlane.deleteTree(dir);
        }
        System.out.print(table(results, rounds, warmup));
    }

    /** One kubelet's node from start to removal: warm-up rounds, then {@code rounds} measured ones. */
    private static Rounds measure(KubernetesClient client, ControlPlane cluster, Path dir, Kubelet kubelet, int warmup,
                                  int rounds) throws Exception {
        String name = "csib-" + kubelet.prefix + "-" + UUID.randomUUID().toString().substring(0, 6);
        MeasuredNode node = new MeasuredNode(client, kubelet.node(cluster, dir.resolve(kubelet.prefix), name),
                kubelet.prefix);
        current = node;
        try (node) {
            node.setUp();
            Rounds measured = new Rounds(new ArrayList<>(), new ArrayList<>());
            for (int r = -warmup; r < rounds; r++) {
                double csi;
                double emptyDir;
                // Alternating, so that neither pod always follows the other's teardown.
                if (Math.floorMod(r, 2) == 0) {
                    csi = node.csiPodSeconds();
                    emptyDir = node.emptyDirPodSeconds();
                } else {
                    emptyDir = node.emptyDirPodSeconds();
                    csi = node.csiPodSeconds();
                }
                String round = r < 0 ? "warm-up" : "round " + (r + 1);
                System.err.printf(Locale.ROOT, "%s %s: CSI pod %.3f s, emptyDir pod %.3f s, difference %.3f s%n",
                        kubelet.label, round, csi, emptyDir, csi - emptyDir);
                if (r >= 0) {
                    measured.csi().add(csi);
                    measured.emptyDir().add(emptyDir);
                }
            }
            return measured;
        } finally {
            current = null;
        }
    }

    static String table(Map<Kubelet, Rounds> results, int rounds, int warmup) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%d rounds per kubelet (after %d warm-up); seconds from the pod's create "
                + "call to a watch seeing it Running: median (min to max)%n%n", rounds, warmup));
        out.append("| kubelet | CSI pod | emptyDir pod | CSI - emptyDir (median) | CSI / upstream | emptyDir / upstream |\n");
        out.append("|---|---:|---:|---:|---:|---:|\n");
        Rounds upstream = results.get(Kubelet.UPSTREAM_DOCKER);
        for (Map.Entry<Kubelet, Rounds> e : results.entrySet()) {
            Rounds r = e.getValue();
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %.3f | %s | %s |%n", e.getKey().label,
                    spread(r.csi()), spread(r.emptyDir()), median(r.differences()),
                    ratio(r.csi(), upstream == null ? null : upstream.csi()),
                    ratio(r.emptyDir(), upstream == null ? null : upstream.emptyDir())));
        }
        return out.toString();
    }

    private static String spread(List<Double> seconds) {
        return String.format(Locale.ROOT, "%.3f (%.3f to %.3f)", median(seconds),
                seconds.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
                seconds.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN));
    }

    private static String ratio(List<Double> kubelet, List<Double> upstream) {
        return upstream == null ? "-" : String.format(Locale.ROOT, "%.2f", median(kubelet) / median(upstream));
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /**
     * A kubelet's node with the driver registered on it and a claim Bound to the driver's volume; it times pods and
     * removes them again. {@link #close()} is idempotent: the shutdown hook of an interrupted run may call it too.
     */
    static final class MeasuredNode implements AutoCloseable {
        private final KubernetesClient client;
        private final ClusterKubelet kubelet;
        private final String pv;
        private final String claim;
        private final String handle;
        private final List<String> pods = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final AtomicBoolean closed = new AtomicBoolean();
        private volatile TestCsiDriver driver;
        private int podCount;

        MeasuredNode(KubernetesClient client, ClusterKubelet kubelet, String prefix) {
            this.client = client;
            this.kubelet = kubelet;
            String suffix = UUID.randomUUID().toString().substring(0, 6);
            this.pv = "csib-pv-" + prefix + "-" + suffix;
            this.claim = "csib-claim-" + prefix + "-" + suffix;
            this.handle = "volume-" + prefix + "-" + suffix;
        }

        /** The kubelet Ready, the driver registered through {@code <root>/plugins_registry}, the claim Bound. */
        void setUp() throws Exception {
            String node = kubelet.node();
            kubelet.start();
            kubelet.awaitReady(client);
            Path pluginDir = Files.createDirectories(kubelet.dir().resolve("csi-plugin"));
            driver = new TestCsiDriver(CsiDriverIT.DRIVER, pluginDir.resolve("csi.sock"),
                    kubelet.root().resolve("plugins_registry/" + CsiDriverIT.DRIVER + "-reg.sock"), List.of("1.0.0"),
                    "id-" + node, 8, Map.of(CsiDriverIT.TOPOLOGY_KEY, node), true);
            driver.stageUnstage = true;
            await("the driver in CSINode " + node).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                    .until(this::driverRegistered);

            client.persistentVolumes().resource(new PersistentVolumeBuilder().withNewMetadata().withName(pv).endMetadata()
                    .withNewSpec().addToCapacity("storage", new Quantity("1Gi")).withAccessModes("ReadWriteOnce")
                    .withPersistentVolumeReclaimPolicy("Retain").withStorageClassName(STORAGE_CLASS)
                    .withNewClaimRef().withNamespace(NAMESPACE).withName(claim).endClaimRef()
                    .withNewCsi().withDriver(CsiDriverIT.DRIVER).withVolumeHandle(handle).endCsi()
                    .endSpec().build()).create();
            client.persistentVolumeClaims().inNamespace(NAMESPACE).resource(new PersistentVolumeClaimBuilder()
                    .withNewMetadata().withName(claim).withNamespace(NAMESPACE).endMetadata()
                    .withNewSpec().withStorageClassName(STORAGE_CLASS).withVolumeName(pv).withAccessModes("ReadWriteOnce")
                    .withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources()
                    .endSpec().build()).create();
            await("claim " + claim + " Bound").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> {
                        var c = client.persistentVolumeClaims().inNamespace(NAMESPACE).withName(claim).get();
                        return c != null && c.getStatus() != null && "Bound".equals(c.getStatus().getPhase());
                    });
        }

        private boolean driverRegistered() {
            CSINode c = client.storage().v1().csiNodes().withName(kubelet.node()).get();
            return c != null && c.getSpec() != null && c.getSpec().getDrivers() != null
                    && c.getSpec().getDrivers().stream().anyMatch(d -> CsiDriverIT.DRIVER.equals(d.getName()));
        }

        /** A pod on the claim, timed; then deleted, and the driver's unpublish and unstage awaited. */
        double csiPodSeconds() throws Exception {
            int teardowns = driver.teardowns.size();
            String name = "csib-csi-" + kubelet.node() + "-" + (++podCount);
            double seconds = secondsToRunning(name, new VolumeBuilder().withName("data").withNewPersistentVolumeClaim()
                    .withClaimName(claim).endPersistentVolumeClaim().build());
            delete(name);
            TestCsiDriver d = driver;
            await("NodeUnpublishVolume and NodeUnstageVolume of " + name).atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200)).until(() -> d.teardowns.size() >= teardowns + 2);
            return seconds;
        }

        /** The same pod on an emptyDir, timed; then deleted. */
        double emptyDirPodSeconds() throws Exception {
            String name = "csib-empty-" + kubelet.node() + "-" + (++podCount);
            double seconds = secondsToRunning(name, new VolumeBuilder().withName("data").withNewEmptyDir().endEmptyDir()
                    .build());
            delete(name);
            return seconds;
        }

        /**
         * Creates the pod with {@code volume} at /data and returns the seconds from just before the create call to the
         * arrival of the watch event that shows it Running; the watch is open before the pod exists.
         */
        private double secondsToRunning(String name, Volume volume) throws Exception {
            Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE).endMetadata()
                    .withNewSpec().withNodeName(kubelet.node()).withRestartPolicy("Never")
                    .withTerminationGracePeriodSeconds(1L)
                    .addNewContainer().withName("app").withImage(AgentTestBase.IMAGE).withImagePullPolicy("Never")
                    .withCommand("sleep", "3600").addNewVolumeMount().withName("data").withMountPath("/data")
                    .endVolumeMount().endContainer()
                    .withVolumes(volume).endSpec().build();
            CompletableFuture<Instant> running = new CompletableFuture<>();
            try (Watch ignored = client.pods().inNamespace(NAMESPACE).withName(name).watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, Pod p) {
                    Instant at = Instant.now();
                    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
                    if ("Running".equals(phase)) {
                        running.complete(at);
                    } else if ("Failed".equals(phase) || "Succeeded".equals(phase)) {
                        running.completeExceptionally(new IllegalStateException(
                                "pod " + name + " ended " + phase + " instead of running: " + p.getStatus()));
                    }
                }

                @Override
                public void onClose(WatcherException cause) {
                    running.completeExceptionally(new IllegalStateException("the watch of pod " + name + " closed", cause));
                }
            })) {
                pods.add(name);
                Instant start = Instant.now();
                client.pods().inNamespace(NAMESPACE).resource(pod).create();
                Instant at;
                try {
                    at = running.get(POD_DEADLINE.toSeconds(), TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    System.err.println(tail(kubelet.logText(), 60));
                    throw new IllegalStateException(e.getCause().getMessage() + " (the kubelet's last log lines are above)",
                            e.getCause());
                } catch (TimeoutException e) {
                    Pod now = client.pods().inNamespace(NAMESPACE).withName(name).get();
                    System.err.println(tail(kubelet.logText(), 60));
                    throw new IllegalStateException("pod " + name + " on " + kubelet.node() + " not Running within "
                            + POD_DEADLINE.toSeconds() + " s (the kubelet's last log lines are above); its status: "
                            + (now == null ? null : now.getStatus()), e);
                }
                return Duration.between(start, at).toNanos() / 1e9;
            }
        }

        private void delete(String name) {
            client.pods().inNamespace(NAMESPACE).withName(name).withGracePeriod(1).delete();
            await("pod " + name + " gone").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                    .until(() -> client.pods().inNamespace(NAMESPACE).withName(name).get() == null);
            pods.remove(name);
        }

        /** The pods, claim and volume, the kubelet (its containers, cgroups, mounts), the driver, the node objects. */
        @Override
        public void close() {
            if (!closed.compareAndSet(false, true)) {
                return;
            }
            for (String pod : List.copyOf(pods)) {
                quietly(() -> client.pods().inNamespace(NAMESPACE).withName(pod).withGracePeriod(0).delete());
            }
            quietly(() -> client.persistentVolumeClaims().inNamespace(NAMESPACE).withName(claim).delete());
            quietly(() -> client.persistentVolumes().withName(pv).delete());
            quietly(kubelet::close);
            TestCsiDriver d = driver;
            if (d != null) {
                quietly(d::close);
            }
            quietly(() -> client.nodes().withName(kubelet.node()).delete());
            quietly(() -> client.storage().v1().csiNodes().withName(kubelet.node()).delete());
        }

        private interface Step {
            void run() throws Exception;
        }

        /** One clean-up step; its failure is told and the next step still runs. */
        private static void quietly(Step step) {
            try {
                step.run();
            } catch (Exception e) {
                System.err.println("clean-up: " + e);
            }
        }

        private static String tail(String text, int lines) {
            List<String> all = text.lines().toList();
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        }
    }
}
