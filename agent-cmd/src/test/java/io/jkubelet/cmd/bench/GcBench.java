package io.jkubelet.cmd.bench;

import com.github.dockerjava.api.DockerClient;
import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.images.ImageGCManager;
import io.jkubelet.core.images.ImageGCPolicy;
import io.jkubelet.core.kuberuntime.NodeContext;
import io.jkubelet.core.kuberuntime.RuntimeManager;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.kuberuntime.testing.FakePodStates;
import io.jkubelet.core.kuberuntime.testing.RuntimeManagers;
import io.jkubelet.core.runtime.testing.ImagesWithPrefix;
import io.jkubelet.core.runtime.testing.RuntimePods;
import io.jkubelet.docker.DockerRuntime;
import io.jkubelet.docker.DockerRuntimeFactory;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * One container GC pass over N dead containers and one image GC pass over M images, on the real engine, timed
 * (wall) and costed (the JVM's CPU time over the pass: the agent's share; Docker's own work is not in it).
 * Containers: N/10 pods with ten dead instances of one container each, under the default policy (the newest
 * instance of each stays). Images: M images made by committing a throw-away container, a tenth of them used by a
 * created container; the thresholds are set one point below what the image file system uses now, so the pass
 * removes every unused one. Image GC sees only the images the bench made; everything made is removed afterwards.
 *
 * <p>Usage: {@code bench/gc [deadContainers] [images]} (default 500 200). Prints Markdown.
 */
public final class GcBench {
    private static final String BUSYBOX = "jkubelet/busybox:1.0";
    private static final String PAUSE = "jkubelet/pause:3.9";
    private static final int INSTANCES_PER_POD = 10;

    public static void main(String[] args) throws Exception {
        int deadContainers = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int images = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        String node = "bench-gc-" + UUID.randomUUID().toString().substring(0, 8);
        Path root = Files.createTempDirectory("jkubelet-gc-bench");
        List<String> madeImages = new ArrayList<>();
        try (DockerRuntime runtime = DockerRuntimeFactory.connect(DockerRuntimeFactory.DEFAULT_ENDPOINT);
             DockerClient docker = PodStartupBench.docker()) {
            try {
                System.out.println("| pass | objects | removed | wall (s) | agent CPU (s) |");
                System.out.println("|---|---:|---:|---:|---:|");
                containerPass(runtime, node, root, deadContainers);
                imagePass(runtime, docker, node, root, images, madeImages);
            } finally {
                cleanUp(runtime, node, madeImages);
            }
        }
    }

    private static void containerPass(DockerRuntime runtime, String node, Path root, int deadContainers) throws Exception {
        RuntimePods pods = new RuntimePods(runtime, node, PAUSE);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> made = new ArrayList<>();
        for (int p = 0; p < deadContainers / INSTANCES_PER_POD; p++) {
            int pod = p;
            made.add(pool.submit(() -> {
                RuntimePods.Sandbox sandbox = pods.sandbox("gc" + pod);
                for (int attempt = 0; attempt < INSTANCES_PER_POD; attempt++) {
                    sandbox.dead("c", attempt, BUSYBOX);
                }
                return null;
            }));
        }
        for (Future<?> f : made) {
            f.get();
        }
        pool.shutdown();
        Map<String, String> mine = Map.of(Labels.NODE_NAME, node);
        waitUntil(() -> runtime.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, mine)).isEmpty());
        int before = runtime.listContainers(new ContainerFilter(null, null, null, mine)).size();

        RuntimeManager manager = runtimeManager(runtime, node, root);
        Measured m = measure(() -> manager.garbageCollect(GCPolicy.DEFAULT, true, false));

        int after = runtime.listContainers(new ContainerFilter(null, null, null, mine)).size();
        System.out.printf(Locale.ROOT, "| container GC | %d dead containers in %d pods | %d | %.2f | %.2f |%n",
                before, deadContainers / INSTANCES_PER_POD, before - after, m.wallSeconds, m.cpuSeconds);
    }

    private static void imagePass(DockerRuntime runtime, DockerClient docker, String node, Path root, int images,
                                  List<String> madeImages) throws Exception {
        String repository = node + "/image";
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<String>> made = new ArrayList<>();
        for (int i = 0; i < images; i++) {
            int n = i;
            made.add(pool.submit(() -> commitImage(docker, repository, n)));
        }
        for (Future<String> f : made) {
            madeImages.add(f.get());
        }
        pool.shutdown();
        RuntimePods pods = new RuntimePods(runtime, node, PAUSE);
        RuntimePods.Sandbox users = pods.sandbox("image-users");
        for (int i = 0; i < images / 10; i++) {
            users.create("u" + i, repository + ":" + i);
        }
        FilesystemUsage fs = runtime.imageFsInfo();
        int usage = 100 - (int) (fs.availableBytes() * 100 / fs.capacityBytes());
        ImageGCPolicy policy = new ImageGCPolicy(usage - 1, usage - 2, Duration.ZERO, Duration.ZERO);
        ImageGCManager gc = new ImageGCManager(new ImagesWithPrefix(runtime, repository + ":"), runtime, PAUSE, policy,
                new LoggingEventRecorder(Clock.systemUTC()), node, Clock.systemUTC(), ImageGCManager.Observer.NOOP);

        Measured m = measure(() -> {
            try {
                gc.garbageCollect(java.time.Instant.now());
            } catch (ImageGCManager.ImageGCException e) {
                // The bench's images are far smaller than one point of the file system: the target is always missed.
            }
        });

        long left = madeImages.stream().filter(id -> runtime.imageStatus(id).isPresent()).count();
        System.out.printf(Locale.ROOT, "| image GC | %d images, %d in use | %d | %.2f | %.2f |%n",
                images, images / 10, images - left, m.wallSeconds, m.cpuSeconds);
    }

    private static String commitImage(DockerClient docker, String repository, int n) {
        String container = docker.createContainerCmd(BUSYBOX).withCmd("true")
                .withLabels(Map.of("io.jkubelet.bench", "gc-image-source")).exec().getId();
        try {
            return docker.commitCmd(container).withRepository(repository).withTag(String.valueOf(n)).exec();
        } finally {
            docker.removeContainerCmd(container).withForce(true).exec();
        }
    }

    private static RuntimeManager runtimeManager(DockerRuntime runtime, String node, Path root) {
        NodeContext context = new NodeContext(node, List.of("127.0.0.1"), root.resolve("pods"), root.resolve("containers"),
                PAUSE, List.of(), "cluster.local", x -> Math.max(x, 0));
        return RuntimeManagers.of(runtime, context, root.resolve("kubelet"), new FakePodStates(),
                new LoggingEventRecorder(Clock.systemUTC()), Clock.systemUTC());
    }

    private record Measured(double wallSeconds, double cpuSeconds) {}

    /** Wall time and this process's CPU time over {@code pass}. */
    private static Measured measure(Runnable pass) {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        pass.run();
        long wall = System.nanoTime() - t0;
        long cpu = os.getProcessCpuTime() - cpu0;
        return new Measured(wall / 1e9, cpu / 1e9);
    }

    private static void waitUntil(Supplier<Boolean> condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (!condition.get()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting for the bench's containers to exit");
            }
            Thread.sleep(200);
        }
    }

    private static void cleanUp(DockerRuntime runtime, String node, List<String> madeImages) {
        RuntimePods.removeAll(runtime, node);
        for (String id : madeImages) {
            try {
                runtime.removeImage(id);
            } catch (RuntimeException e) {
                System.err.println("could not remove bench image " + id + ": " + e.getMessage());
            }
        }
    }
}
