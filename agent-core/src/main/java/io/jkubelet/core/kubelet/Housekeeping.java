package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.kuberuntime.ContainerConfigFactory;
import io.jkubelet.core.kuberuntime.NodeContext;
import io.jkubelet.core.kuberuntime.KubeRuntime;
import io.jkubelet.core.pleg.GenericPleg;
import io.jkubelet.core.pleg.RunningPod;
import io.jkubelet.core.prober.ProbeManager;
import io.jkubelet.core.status.ReasonCache;
import io.jkubelet.core.status.StatusManager;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.util.RemoveAll;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * Upstream {@code HandlePodCleanups}: kills what runs but no source wants, and cleans up what removed pods left
 * behind (containers, sandboxes, volumes, pod directories, logs, probe workers, statuses, mirror pods, pod cgroups). Decides on
 * the loop thread from memory; everything that touches the runtime, the disk or the apiserver runs on the
 * executor, so an {@code umount} that hangs never holds the loop.
 */
final class Housekeeping {
    private static final Logger log = LoggerFactory.getLogger(Housekeeping.class);

    private final PodManager podManager;
    private final PodWorkers podWorkers;
    private final PodSyncStatuses workerStates;
    private final GenericPleg pleg;
    private final ProbeManager probeManager;
    private final StatusManager statusManager;
    private final ReasonCache reasonCache;
    private final KubeRuntime runtime;
    private final OrphanedPodDirs orphanedPodDirs;
    private final PodDirs dirs;
    private final NodeContext node;
    private final MirrorPodSync mirrorPods;
    private final PodCgroupSync podCgroups;
    private final Executor executor;
    /** Pods whose clean-up is on its way: one at a time per pod. */
    private final Set<String> cleaning = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean scanningDirs = new AtomicBoolean();
    private final AtomicBoolean scanningCgroups = new AtomicBoolean();

    Housekeeping(PodManager podManager, PodWorkers podWorkers, PodSyncStatuses workerStates, GenericPleg pleg, ProbeManager probeManager,
                 StatusManager statusManager, ReasonCache reasonCache, KubeRuntime runtime,
                 OrphanedPodDirs orphanedPodDirs, PodDirs dirs, NodeContext node, MirrorPodSync mirrorPods,
                 PodCgroupSync podCgroups, Executor executor) {
        this.podManager = podManager;
        this.podWorkers = podWorkers;
        this.workerStates = workerStates;
        this.pleg = pleg;
        this.probeManager = probeManager;
        this.statusManager = statusManager;
        this.reasonCache = reasonCache;
        this.runtime = runtime;
        this.orphanedPodDirs = orphanedPodDirs;
        this.dirs = dirs;
        this.node = node;
        this.mirrorPods = mirrorPods;
        this.podCgroups = podCgroups;
        this.executor = executor;
    }

    /** One pass; on the loop thread, only once every source has delivered its pods. */
    void cleanupPods() {
        Set<String> desired = podManager.uids();
        // Pods whose workers finished and that no source wants any more.
        for (String uid : workerStates.knownUids()) {
            if (!desired.contains(uid) && workerStates.isTerminated(uid)) {
                cleanupRemovedPod(uid);
                podWorkers.forget(uid);
            }
        }
        // Pods running on the runtime that nobody wants (removed while the agent was down).
        for (RunningPod rp : pleg.runningPods()) {
            if (desired.contains(rp.uid()) || workerStates.isKnown(rp.uid())) {
                continue;
            }
            boolean anyRunning = rp.members().stream().anyMatch(RunningPod.Member::running);
            if (anyRunning) {
                log.info("Killing unwanted pod {}/{} ({})", rp.namespace(), rp.name(), rp.uid());
                podWorkers.updatePod(SyncPodType.KILL, orphan(rp), 1L);
            } else {
                cleanupRemovedPod(rp.uid());
            }
        }
        probeManager.cleanupPods(desired);
        statusManager.removeOrphanedStatuses(desired);
        cleanupOrphanedPodDirs(desired);
        cleanupOrphanedPodCgroups();
        mirrorPods.deleteOrphanedMirrorPods();
    }

    /** Pod cgroups of pods no worker may still be running; one scan at a time. */
    private void cleanupOrphanedPodCgroups() {
        runAlone(scanningCgroups, () -> podCgroups.cleanupOrphans(workerStates::couldHaveRunningContainers));
    }

    private static Pod orphan(RunningPod rp) {
        return new PodBuilder().withNewMetadata().withUid(rp.uid()).withName(rp.name()).withNamespace(rp.namespace())
                .endMetadata().withNewSpec().endSpec().build();
    }

    private void cleanupRemovedPod(String uid) {
        if (!cleaning.add(uid)) {
            return;
        }
        executor.execute(() -> {
            try {
                var rp = pleg.runningPod(uid);
                runtime.removePod(uid);
                orphanedPodDirs.cleanup(uid);
                reasonCache.removePod(uid);
                rp.ifPresent(p -> removePodLogs(p.namespace(), p.name(), uid));
                pleg.requestRelist();
            } finally {
                cleaning.remove(uid);
            }
        });
    }

    private void removePodLogs(String namespace, String name, String uid) {
        Path dir = ContainerConfigFactory.podLogsDir(node.podLogsDir(), namespace, name, uid);
        try {
            RemoveAll.oneFilesystem(dir);
            Path links = node.containerLogsDir();
            if (Files.isDirectory(links)) {
                try (var s = Files.list(links)) {
                    for (Path l : s.filter(p -> p.getFileName().toString().startsWith(name + "_" + namespace + "_")).toList()) {
                        if (Files.isSymbolicLink(l) && !Files.exists(l)) {
                            Files.deleteIfExists(l);
                        }
                    }
                }
            }
        } catch (IOException e) {
            log.warn("Failed to remove logs of pod {}/{}: {}", namespace, name, e.getMessage());
        }
    }

    /** Pod directories of pods that neither a source, the runtime nor a worker knows; one scan at a time. */
    private void cleanupOrphanedPodDirs(Set<String> desired) {
        Set<String> running = pleg.runningPods().stream().map(RunningPod::uid).collect(Collectors.toSet());
        runAlone(scanningDirs, () -> scanPodDirs(desired, running));
    }

    /** Runs {@code task} on the executor unless its previous run is still going. */
    private void runAlone(AtomicBoolean going, Runnable task) {
        if (!going.compareAndSet(false, true)) {
            return;
        }
        executor.execute(() -> {
            try {
                task.run();
            } finally {
                going.set(false);
            }
        });
    }

    private void scanPodDirs(Set<String> desired, Set<String> running) {
        Path pods = dirs.podsDir();
        if (!Files.isDirectory(pods)) {
            return;
        }
        try (var s = Files.list(pods)) {
            for (Path p : s.toList()) {
                String uid = p.getFileName().toString();
                if (!desired.contains(uid) && !running.contains(uid) && !workerStates.isKnown(uid) && !cleaning.contains(uid)) {
                    orphanedPodDirs.cleanup(uid);
                }
            }
        } catch (IOException e) {
            log.warn("Failed to list {}: {}", pods, e.getMessage());
        }
    }
}
