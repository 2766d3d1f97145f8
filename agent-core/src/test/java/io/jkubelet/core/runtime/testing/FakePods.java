package io.jkubelet.core.runtime.testing;

import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxMetadata;

import java.util.List;
import java.util.Map;

/**
 * Sandboxes and containers made on a {@link FakeRuntime} through the port, labelled as the kubelet labels them
 * (pod UID, name, namespace, node), for tests of what reads the runtime back: the PLEG, GC.
 */
public final class FakePods {
    private final FakeRuntime runtime;
    private final String nodeName;
    private final String sandboxImage;

    public FakePods(FakeRuntime runtime, String nodeName, String sandboxImage) {
        this.runtime = runtime;
        this.nodeName = nodeName;
        this.sandboxImage = sandboxImage;
    }

    /** A sandbox of pod {@code name} (UID {@code uid-<name>}, namespace {@code default}) on this node. */
    public Sandbox sandbox(String name) {
        PodSandboxConfig config = new PodSandboxConfig(new PodSandboxMetadata(name, "uid-" + name, "default", 0), name,
                "/var/log/pods/default_" + name + "_uid-" + name, null, List.of(), labels(name), Map.of(), "",
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

        /** Creates (does not start) container {@code name} running {@code true} from {@code image}. */
        public String create(String name, String image) {
            Map<String, String> labels = new java.util.HashMap<>(labels(config.metadata().name()));
            labels.put(Labels.CONTAINER_NAME, name);
            ContainerConfig c = new ContainerConfig(new ContainerMetadata(name, 0), image, List.of("true"), List.of(), "",
                    List.of(), List.of(), labels, Map.of(), name + "/0.log", false, false, false,
                    new LinuxContainerResources(0, 0, 0, 0, 0), new LinuxContainerSecurityContext(null, null, List.of(),
                    false, false, List.of(), List.of(), NamespaceOptions.POD_DEFAULT, false));
            return runtime.createContainer(id, c, config);
        }

        /** Creates container {@code name}, runs it and makes it exit: a dead instance. */
        public String dead(String name, String image) {
            String c = create(name, image);
            runtime.startContainer(c);
            runtime.exitContainer(c, 1, null);
            return c;
        }
    }
}
