package io.jkubelet.core.kubelet;

import io.jkubelet.core.container.ContainerStatus;
import io.jkubelet.core.container.State;
import io.jkubelet.core.kuberuntime.RuntimeManager;
import io.jkubelet.core.pleg.GenericPleg;
import io.jkubelet.core.pleg.RunningPod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Container garbage collection (upstream {@code containerGC}): keeps the newest dead instance of each container
 * of the desired pods and removes older ones; pods that are gone are removed whole by housekeeping. Runs on its
 * own timer, never on the loop.
 */
final class ContainerGc {
    private static final Logger log = LoggerFactory.getLogger(ContainerGc.class);

    /** Dead instances kept per container (upstream {@code MaxPerPodContainer}, from --maximum-dead-containers-per-container). */
    static final int MAX_DEAD_PER_CONTAINER = 1;

    private final PodManager podManager;
    private final GenericPleg pleg;
    private final RuntimeManager runtimeManager;

    ContainerGc(PodManager podManager, GenericPleg pleg, RuntimeManager runtimeManager) {
        this.podManager = podManager;
        this.pleg = pleg;
        this.runtimeManager = runtimeManager;
    }

    void garbageCollect() {
        try {
            Set<String> desired = podManager.uids();
            for (RunningPod rp : pleg.runningPods()) {
                if (desired.contains(rp.uid())) {
                    collectPod(rp);
                }
            }
            runtimeManager.crashBackoff().gc();
        } catch (RuntimeException e) {
            log.warn("Container garbage collection failed: {}", e.getMessage());
        }
    }

    private void collectPod(RunningPod rp) {
        var status = runtimeManager.getPodStatus(rp.uid(), rp.name(), rp.namespace());
        // The first instance of each name as the runtime lists them counts as its latest (Docker lists newest first).
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
                runtimeManager.removeContainerQuietly(c.id());
            }
        });
    }
}
