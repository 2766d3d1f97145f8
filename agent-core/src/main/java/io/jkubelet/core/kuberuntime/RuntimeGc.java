package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.kuberuntime.Evictables.GcContainer;
import io.jkubelet.core.kuberuntime.Evictables.GcSandbox;
import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.PodSandboxState;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.util.Backoff;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Removes what the runtime keeps of dead containers and gone pods (upstream {@code kuberuntime}'s
 * {@code containerGC}): the dead containers and sandboxes {@link Evictables} picks under the {@link GCPolicy}, then
 * the logs of pods gone for good ({@link PodLogsGc}). Only this node's containers are looked at. Thread-safe.
 */
final class RuntimeGc {
    private static final Logger log = LoggerFactory.getLogger(RuntimeGc.class);
    /**
     * The grace a container in an unknown state gets before removal: it could be running (upstream kills it with
     * the kubelet's minimum grace period).
     */
    private static final Duration UNKNOWN_STATE_STOP_GRACE = Duration.ofSeconds(2);

    private final RuntimeService runtime;
    private final NodeScope scope;
    private final Backoff crashBackoff;
    private final PodStateProvider pods;
    private final PodLogsGc logs;
    private final Clock clock;

    RuntimeGc(RuntimeService runtime, NodeScope scope, Backoff crashBackoff, PodStateProvider pods, PodLogsGc logs,
              Clock clock) {
        this.runtime = runtime;
        this.scope = scope;
        this.crashBackoff = crashBackoff;
        this.pods = pods;
        this.logs = logs;
        this.clock = clock;
    }

    /**
     * One pass (upstream {@code GarbageCollect}): evictable containers, then sandboxes left without containers,
     * then pod log directories and dangling log links. Failing removals are logged and left to the next pass.
     *
     * @param allSourcesReady every pod source has reported, so a pod no source wants is gone and not just late
     * @param evictNonDeletedPods also free what terminated pods that are still wanted keep (the node is short of disk)
     * @throws RuntimeException when the runtime cannot list its containers or sandboxes
     */
    void garbageCollect(GCPolicy policy, boolean allSourcesReady, boolean evictNonDeletedPods) {
        Predicate<String> podRemovable = uid -> pods.shouldPodContentBeRemoved(uid)
                || (evictNonDeletedPods && pods.shouldPodRuntimeBeRemoved(uid));
        List<Container> containers = runtime.listContainers(scope.scoped(ContainerFilter.ALL));
        Map<String, ContainerState> states = new HashMap<>();
        List<GcContainer> gcContainers = new ArrayList<>(containers.size());
        for (Container c : containers) {
            states.put(c.id(), c.state());
            gcContainers.add(new GcContainer(c.id(), c.labels().getOrDefault(Labels.POD_UID, ""), c.metadata().name(),
                    c.createdAt(), c.metadata().attempt(), c.state()));
        }
        Set<String> removed = new HashSet<>();
        for (GcContainer c : Evictables.containers(gcContainers, policy, clock.instant(), allSourcesReady, podRemovable)) {
            if (removeEvictable(c)) {
                removed.add(c.id());
                states.put(c.id(), ContainerState.CONTAINER_EXITED); // gone: its legacy log link may go too
            }
        }
        evictSandboxes(containers, removed, podRemovable);
        if (allSourcesReady) {
            logs.evictPodLogDirectories(pods::shouldPodContentBeRemoved);
        }
        logs.removeDanglingLegacyLinks(states);
        crashBackoff.gc();
    }

    private void evictSandboxes(List<Container> containers, Set<String> removedContainers, Predicate<String> podRemovable) {
        Set<String> withContainers = new HashSet<>();
        for (Container c : containers) {
            if (!removedContainers.contains(c.id())) {
                withContainers.add(c.podSandboxId());
            }
        }
        List<GcSandbox> sandboxes = new ArrayList<>();
        for (PodSandbox sb : runtime.listPodSandbox(scope.scoped(PodSandboxFilter.ALL))) {
            sandboxes.add(new GcSandbox(sb.id(), sb.metadata().uid(), sb.createdAt(), sb.metadata().attempt(),
                    sb.state() == PodSandboxState.SANDBOX_READY));
        }
        for (String id : Evictables.sandboxes(sandboxes, withContainers, podRemovable)) {
            removeSandbox(id);
        }
    }

    /** Removes a dead container; one in an unknown state could be running and is stopped first. */
    private boolean removeEvictable(GcContainer c) {
        if (c.state() == ContainerState.CONTAINER_UNKNOWN) {
            try {
                runtime.stopContainer(c.id(), UNKNOWN_STATE_STOP_GRACE);
            } catch (RuntimeException e) {
                log.warn("Failed to stop container {} in an unknown state before removal: {}", c.id(), e.getMessage());
                return false;
            }
        }
        return removeContainer(c.id());
    }

    /** Removes every container and sandbox of a pod that is gone for good. */
    void removePod(String uid) {
        for (var c : runtime.listContainers(scope.scoped(ContainerFilter.forPodUid(uid)))) {
            removeContainer(c.id());
        }
        for (var sb : runtime.listPodSandbox(scope.scoped(PodSandboxFilter.forPodUid(uid)))) {
            removeSandbox(sb.id());
        }
    }

    /**
     * Removes one container with its log (the runtime removes the file and its link under the pod's log directory;
     * the legacy link goes with the next pass's dangling links); one that is gone already or cannot be removed now
     * is left to the next pass.
     */
    boolean removeContainer(String id) {
        try {
            runtime.removeContainer(id);
            return true;
        } catch (RuntimeException e) {
            log.debug("Failed to remove container {}: {}", id, e.getMessage());
            return false;
        }
    }

    private void removeSandbox(String id) {
        try {
            runtime.removePodSandbox(id);
        } catch (RuntimeException e) {
            log.warn("Failed to remove sandbox {}: {}", id, e.getMessage());
        }
    }
}
