package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.container.ContainerStatus;
import io.jkubelet.core.container.State;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.util.Backoff;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Removes what the runtime keeps of dead containers and gone pods (upstream {@code containerGC}): the newest dead
 * instance of each container of a wanted pod is kept for its logs and restart count, older ones go; a pod that is
 * gone for good goes whole. Thread-safe.
 */
final class RuntimeGc {
    private static final Logger log = LoggerFactory.getLogger(RuntimeGc.class);

    /** Dead instances kept per container (upstream {@code MaxPerPodContainer}, from --maximum-dead-containers-per-container). */
    static final int MAX_DEAD_PER_CONTAINER = 1;

    private final RuntimeService runtime;
    private final NodeScope scope;
    private final Backoff crashBackoff;

    RuntimeGc(RuntimeService runtime, NodeScope scope, Backoff crashBackoff) {
        this.runtime = runtime;
        this.scope = scope;
        this.crashBackoff = crashBackoff;
    }

    void garbageCollect(Collection<RuntimePodStatus> wantedPods) {
        for (RuntimePodStatus status : wantedPods) {
            removeDeadInstances(status);
        }
        crashBackoff.gc();
    }

    private void removeDeadInstances(RuntimePodStatus status) {
        // The pod status lists each container's instances newest first: the first of each name is its latest.
        Set<String> latestIds = new HashSet<>();
        status.containers().stream().collect(Collectors.groupingBy(ContainerStatus::name))
                .forEach((n, l) -> latestIds.add(l.get(0).id()));
        Map<String, List<ContainerStatus>> deadByName = status.containers().stream()
                .filter(c -> c.state() == State.EXITED)
                .collect(Collectors.groupingBy(ContainerStatus::name));
        deadByName.forEach((name, dead) -> {
            int kept = 0;
            for (ContainerStatus c : dead) {
                if (latestIds.contains(c.id()) || kept < MAX_DEAD_PER_CONTAINER) {
                    kept++;
                    continue;
                }
                removeContainer(c.id());
            }
        });
    }

    /** Removes every container and sandbox of a pod that is gone for good. */
    void removePod(String uid) {
        for (var c : runtime.listContainers(scope.scoped(ContainerFilter.forPodUid(uid)))) {
            removeContainer(c.id());
        }
        for (var sb : runtime.listPodSandbox(scope.scoped(PodSandboxFilter.forPodUid(uid)))) {
            try {
                runtime.removePodSandbox(sb.id());
            } catch (RuntimeException e) {
                log.warn("Failed to remove sandbox {} of pod {}: {}", sb.id(), uid, e.getMessage());
            }
        }
    }

    /** Removes one container; one that is gone already or cannot be removed now is left to the next pass. */
    void removeContainer(String id) {
        try {
            runtime.removeContainer(id);
        } catch (RuntimeException e) {
            log.debug("Failed to remove container {}: {}", id, e.getMessage());
        }
    }
}
