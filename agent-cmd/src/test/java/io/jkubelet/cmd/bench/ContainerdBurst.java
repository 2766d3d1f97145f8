package io.jkubelet.cmd.bench;

import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.testing.RuntimePods;
import io.jkubelet.cri.CriRuntime;
import io.jkubelet.cri.CriRuntimeFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The pod start burst on containerd (the system containerd of {@code jk_ensure_containerd}): jkubelet on its CRI
 * endpoint against the raw CRI calls of the same pods (RunPodSandbox, then CreateContainer and StartContainer of both
 * containers; pods in parallel) through the adapter's CRI client, as {@code crictl runp/create/start} would make them.
 */
final class ContainerdBurst implements PodStartupBench.Burst {
    static final String ENDPOINT = "unix:///run/containerd/containerd.sock";
    /** The CRI lists images by their full names. */
    private static final String IMAGE = "docker.io/" + PodStartupBench.IMAGE;
    private static final String PAUSE = "docker.io/" + PodStartupBench.PAUSE;

    private final String launcher;

    ContainerdBurst(String launcher) {
        this.launcher = launcher;
    }

    @Override
    public double raw(int n) throws Exception {
        String node = "raw-" + UUID.randomUUID().toString().substring(0, 8);
        Path logs = Files.createTempDirectory("jkubelet-bench-cri");
        try (CriRuntime runtime = connect()) {
            RuntimePods pods = new RuntimePods(runtime, node, PAUSE);
            long start = System.nanoTime();
            try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<?>> fs = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    String name = node + "-pod" + i;
                    fs.add(ex.submit(() -> {
                        RuntimePods.Sandbox sandbox = pods.sandbox(name, logs);
                        sandbox.running("a", 0, IMAGE);
                        sandbox.running("b", 0, IMAGE);
                        return null;
                    }));
                }
                for (Future<?> f : fs) {
                    f.get();
                }
            }
            double secs = (System.nanoTime() - start) / 1e9;
            pods.removeAll();
            return secs;
        } finally {
            ReferenceBench.deleteTree(logs);
        }
    }

    @Override
    public double agent(int n) throws Exception {
        String node = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        try (CriRuntime runtime = connect()) {
            ContainerFilter running = new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, Map.of(Labels.NODE_NAME, node));
            try {
                return PodStartupBench.timedAgentBurst(launcher, node, n,
                        () -> runtime.listContainers(running).size() == 2 * n,
                        "--container-runtime-endpoint", ENDPOINT);
            } finally {
                RuntimePods.removeAll(runtime, node);
                PodStartupBench.removeCgroups(node);
            }
        }
    }

    private static CriRuntime connect() {
        return CriRuntimeFactory.connect(ENDPOINT, null, Duration.ofMinutes(2));
    }
}
