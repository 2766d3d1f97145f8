package io.jkubelet.core.runtime.testing;

import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.RuntimeService;

import java.util.List;
import java.util.Map;

/**
 * Sandboxes and containers made through the runtime port, labelled as the kubelet labels them (pod UID, name,
 * namespace, node), for tests and benchmarks of what reads the runtime back (GC) on the fake or on Docker. Their
 * command is {@link #TRUE}: a fake must be told it {@linkplain FakeRuntime#scriptCommand exits at once}.
 */
public final class RuntimePods {
    /** What a dead instance ran: it ends at once. */
    public static final List<String> TRUE = List.of("true");
    /** What a running instance runs (a fake runs an unscripted command until it is stopped). */
    public static final List<String> SLEEP = List.of("sleep", "3600");

    private final RuntimeService runtime;
    private final String nodeName;
    private final String sandboxImage;

    public RuntimePods(RuntimeService runtime, String nodeName, String sandboxImage) {
        this.runtime = runtime;
        this.nodeName = nodeName;
        this.sandboxImage = sandboxImage;
    }

    /** Removes every container and sandbox labelled with this node. */
    public void removeAll() {
        removeAll(runtime, nodeName);
    }

    /** Removes every container, then every sandbox, labelled with {@code nodeName}: what a test or bench made. */
    public static void removeAll(RuntimeService runtime, String nodeName) {
        Map<String, String> mine = Map.of(Labels.NODE_NAME, nodeName);
        for (Container c : runtime.listContainers(new ContainerFilter(null, null, null, mine))) {
            runtime.removeContainer(c.id());
        }
        for (PodSandbox s : runtime.listPodSandbox(new PodSandboxFilter(null, null, mine))) {
            runtime.removePodSandbox(s.id());
        }
    }

    /** A sandbox of pod {@code name} (UID {@code uid-<name>}, namespace {@code default}) on this node. */
    public Sandbox sandbox(String name) {
        return sandbox(name, java.nio.file.Path.of("/var/log/pods"));
    }

    /** As {@link #sandbox(String)}, its logs under {@code podLogsDir} (a bench's own directory, removed with it). */
    public Sandbox sandbox(String name, java.nio.file.Path podLogsDir) {
        PodSandboxConfig config = new PodSandboxConfig(new PodSandboxMetadata(name, "uid-" + name, "default", 0), name,
                podLogsDir.resolve("default_" + name + "_uid-" + name).toString(), null, List.of(), labels(name), Map.of(), "",
                NamespaceOptions.POD_DEFAULT, 0, sandboxImage, false, Map.of());
        return new Sandbox(runtime.runPodSandbox(config), config);
    }

    private Map<String, String> labels(String podName) {
        return Map.of(Labels.POD_UID, "uid-" + podName, Labels.POD_NAME, podName, Labels.POD_NAMESPACE, "default",
                Labels.NODE_NAME, nodeName);
    }

    /** A sandbox made; its containers are made with {@link #create}. */
    public final class Sandbox {
        public final String id;
        private final PodSandboxConfig config;

        private Sandbox(String id, PodSandboxConfig config) {
            this.id = id;
            this.config = config;
        }

        /** Creates (does not start) instance 0 of container {@code name} running {@code true} from {@code image}. */
        public String create(String name, String image) {
            return create(name, 0, image, TRUE);
        }

        /** Creates (does not start) instance {@code attempt} of container {@code name} running {@code command}. */
        public String create(String name, int attempt, String image, List<String> command) {
            Map<String, String> labels = new java.util.HashMap<>(labels(config.metadata().name()));
            labels.put(Labels.CONTAINER_NAME, name);
            ContainerConfig c = new ContainerConfig(new ContainerMetadata(name, attempt), image, command, List.of(), "",
                    List.of(), List.of(), labels, Map.of(), name + "/" + attempt + ".log", false, false, false,
                    new LinuxContainerResources(0, 0, 0, 0, 0), new LinuxContainerSecurityContext(null, null, List.of(),
                    false, false, List.of(), List.of(), NamespaceOptions.POD_DEFAULT, false));
            return runtime.createContainer(id, c, config);
        }

        /** Creates instance {@code attempt} of container {@code name} and starts it: it ends at once, a dead instance. */
        public String dead(String name, int attempt, String image) {
            return start(create(name, attempt, image, TRUE));
        }

        /** Creates instance {@code attempt} of container {@code name} and starts it running {@link #SLEEP}. */
        public String running(String name, int attempt, String image) {
            return start(create(name, attempt, image, SLEEP));
        }

        private String start(String containerId) {
            runtime.startContainer(containerId);
            return containerId;
        }
    }
}
