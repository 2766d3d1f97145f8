package io.jkubelet.cmd.e2e;

import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.testing.RuntimePods;
import io.jkubelet.cri.CriRuntime;
import org.junit.jupiter.api.Tag;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link CpuManagerIT} with both kubelets on the system containerd: the static policy's cpusets reach the containers
 * through the CRI ({@code UpdateContainerResources} from the reconcile loop, the cpuset in the container's config at
 * creation), the upstream kubelet v1.20.2 as a remote-runtime node first, then jkubelet, and the same story must show
 * the same cpusets and state file.
 */
@Tag("containerd")
class ContainerdCpuManagerIT extends CpuManagerIT {
    @Override
    String pid(String containerId) throws Exception {
        // ctr's task list: "TASK PID STATUS", one line per running task (a container's ID is its task's).
        return ContainerdTestBase.ctr("tasks", "ls").lines().map(l -> l.trim().split("\\s+"))
                .filter(f -> f.length >= 3 && f[0].equals(containerId)).map(f -> f[1]).findFirst()
                .orElseThrow(() -> new IllegalStateException("containerd runs no task " + containerId));
    }

    @Override
    Agent upstreamKubelet(Path dir) throws Exception {
        return Agent.upstream(dir, node(), true, ARGS);
    }

    /**
     * The upstream kubelet labels nothing with its node: its pods are the static pods it named {@code <pod>-<node>}.
     */
    @Override
    void removeUpstreamKubeletsPods(Agent upstream) throws Exception {
        String suffix = "-" + upstream.nodeName;
        try (CriRuntime runtime = ContainerdTestBase.cri()) {
            List<String> sandboxes = new ArrayList<>();
            for (PodSandbox s : runtime.listPodSandbox(PodSandboxFilter.ALL)) {
                if (s.labels().getOrDefault(Labels.POD_NAME, "").endsWith(suffix)) {
                    sandboxes.add(s.id());
                }
            }
            for (Container c : runtime.listContainers(ContainerFilter.ALL)) {
                if (sandboxes.contains(c.podSandboxId())) {
                    runtime.removeContainer(c.id());
                }
            }
            sandboxes.forEach(runtime::removePodSandbox);
        }
    }

    @Override
    Agent jkubelet(Path dir) throws Exception {
        List<String> args = new ArrayList<>(List.of("--container-runtime-endpoint", ContainerdTestBase.ENDPOINT));
        args.addAll(ARGS);
        return new Agent(dir, node(), args);
    }

    @Override
    String runtime() {
        return "containerd";
    }

    @Override
    void removeFromRuntime(String nodeName) {
        try (CriRuntime runtime = ContainerdTestBase.cri()) {
            RuntimePods.removeAll(runtime, nodeName);
        }
    }
}
