package io.jkubelet.core.kuberuntime.testing;

import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.images.ImageManager;
import io.jkubelet.core.kuberuntime.ContainerConfigFactory;
import io.jkubelet.core.kuberuntime.NodeContext;
import io.jkubelet.core.kuberuntime.PodStateProvider;
import io.jkubelet.core.kuberuntime.PodVolumes;
import io.jkubelet.core.kuberuntime.RuntimeManager;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtimeclass.RuntimeClassManager;
import io.jkubelet.core.volume.PodDirs;

import java.nio.file.Path;
import java.time.Clock;

/** A runtime manager over a runtime port, for tests and benchmarks that drive it directly (GC): no hooks, no objects. */
public final class RuntimeManagers {
    private RuntimeManagers() {}

    /**
     * @param runtime the port; also its images
     * @param kubeletRoot the root directory for the pods' directories
     */
    public static <R extends RuntimeService & io.jkubelet.core.runtime.ImageService> RuntimeManager of(R runtime,
            NodeContext node, Path kubeletRoot, PodStateProvider pods, EventRecorder events, Clock clock) {
        return of(runtime, node, kubeletRoot, pods, events, clock, RuntimeClassManager.standalone());
    }

    /** As {@link #of(RuntimeService, NodeContext, Path, PodStateProvider, EventRecorder, Clock)}, with RuntimeClasses. */
    public static <R extends RuntimeService & io.jkubelet.core.runtime.ImageService> RuntimeManager of(R runtime,
            NodeContext node, Path kubeletRoot, PodStateProvider pods, EventRecorder events, Clock clock,
            RuntimeClassManager runtimeClasses) {
        PodDirs dirs = new PodDirs(kubeletRoot);
        return new RuntimeManager(runtime, new ImageManager(runtime, events, clock, true),
                new ContainerConfigFactory(node, (p, c) -> 0), PodVolumes.NONE, dirs, node, events, clock,
                (action, c, host, timeout) -> { }, pods, runtimeClasses);
    }
}
