package io.jkubelet.cri;

import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A fake CRI runtime on the in-process transport and the adapter on it ({@code cri}), with upstream's default
 * {@code runtimeRequestTimeout} of 2 minutes; and the plainest configs a pod's sandbox and container can have.
 */
abstract class FakeCriTestBase {
    static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(2);
    static final String NGINX = "docker.io/library/nginx:1.25";
    static final String NGINX_ID = "sha256:a8758716bb6aa4d90071160d27028fe4eaee7ce8166221a97d30440c8eac2be6";

    FakeCriServer fake;
    CriRuntime cri;

    @BeforeEach
    void startFakeRuntime() {
        fake = new FakeCriServer();
        cri = fake.adapter(REQUEST_TIMEOUT);
    }

    @AfterEach
    void stopFakeRuntime() {
        cri.close();
        fake.close();
    }

    static PodSandboxConfig sandboxConfig(String name) {
        return new PodSandboxConfig(new PodSandboxMetadata(name, "uid-" + name, "default", 0), name,
                "/var/log/pods/default_" + name + "_uid-" + name, null, List.of(),
                Map.of("io.kubernetes.pod.uid", "uid-" + name), Map.of(), "", NamespaceOptions.POD_DEFAULT, -998,
                "registry.k8s.io/pause:3.9", false, Map.of());
    }

    static ContainerConfig containerConfig(String name, String image) {
        return new ContainerConfig(new ContainerMetadata(name, 0), image, List.of(), List.of(), null, List.of(),
                List.of(), Map.of("io.kubernetes.pod.uid", "uid-pod"), Map.of(), name + "/0.log", false, false, false,
                new LinuxContainerResources(0, 0, 2, 0, 1000),
                new LinuxContainerSecurityContext(null, null, List.of(), false, false, List.of(), List.of(),
                        NamespaceOptions.POD_DEFAULT, false));
    }

    /** A sandbox and a container of {@code image} in it, created through the adapter; the container's id. */
    String createdContainer(String name, String image) {
        PodSandboxConfig sandbox = sandboxConfig("pod");
        return cri.createContainer(cri.runPodSandbox(sandbox), containerConfig(name, image), sandbox);
    }
}
