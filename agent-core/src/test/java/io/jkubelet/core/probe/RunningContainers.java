package io.jkubelet.core.probe;

import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.runtime.testing.FakeRuntime.Script;

import java.util.List;
import java.util.Map;

/** Test fixture: a running container on the {@link FakeRuntime}, to exec probes in. */
public final class RunningContainers {
    private RunningContainers() {}

    /** A running container on the fake runtime, for exec probes. */
    public static String start(FakeRuntime runtime) {
        runtime.addImage("pause:3.9");
        runtime.addImage("busybox:1.36");
        PodSandboxConfig sandbox = new PodSandboxConfig(new PodSandboxMetadata("web", "uid-web", "default", 0), "web",
                "/var/log/pods/x", null, List.of(), Map.of("io.kubernetes.pod.uid", "uid-web"), Map.of(), "",
                NamespaceOptions.POD_DEFAULT, 0, "pause:3.9", false, Map.of());
        String sandboxId = runtime.runPodSandbox(sandbox);
        ContainerConfig config = new ContainerConfig(new ContainerMetadata("app", 0), "busybox:1.36",
                List.of("sleep", "1000"), List.of(), "", List.of(), List.of(), Map.of(), Map.of(), "app/0.log",
                false, false, false, new LinuxContainerResources(0, 0, 0, 0, 0),
                new LinuxContainerSecurityContext(null, null, List.of(), false, false, List.of(), List.of(),
                        NamespaceOptions.POD_DEFAULT, false));
        runtime.scriptCommand(List.of("sleep", "1000"), Script.runsForever());
        String id = runtime.createContainer(sandboxId, config, sandbox);
        runtime.startContainer(id);
        return id;
    }

}
