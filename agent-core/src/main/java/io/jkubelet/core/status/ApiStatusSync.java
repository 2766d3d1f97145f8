package io.jkubelet.core.status;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.config.ConfigAnnotations;
import io.jkubelet.core.config.PodCodec;
import io.jkubelet.core.pod.PodDeleter;
import io.jkubelet.core.pod.MirrorPods;
import io.jkubelet.core.util.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ArrayNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Writes the status manager's statuses to the apiserver (the sync half of upstream's {@code status.Manager}).
 *
 * <p>Each new status version queues its pod; one worker takes the pod as the watch last delivered it (or reads it
 * from the apiserver when that copy was refused), keeps the conditions the kubelet does not own, and patches the {@code status} subresource with the JSON patch from the apiserver's status
 * to the kubelet's ({@link StatusPatch}), which tests the pod's UID first (a pod re-created under the same name is
 * not written to). A patch with nothing in it is not sent. A static pod's status goes to its mirror pod. Every
 * {@link #BATCH_PERIOD} the versions not yet written (failed writes, the apiserver away) are queued again, so the
 * apiserver catches up when it returns, with the latest status only.
 *
 * <p>Graceful deletion: a pod that has a deletion timestamp, whose final status is written and whose containers
 * are gone is deleted with grace period 0 and its UID as precondition (upstream {@code canBeDeleted}).
 */
public final class ApiStatusSync implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ApiStatusSync.class);

    /** Upstream {@code syncPeriod}: how often unwritten statuses are retried. */
    public static final Duration BATCH_PERIOD = Duration.ofSeconds(10);

    /** Conditions the kubelet owns (upstream {@code PodConditionsByKubelet}); others are kept as the apiserver has them. */
    static final Set<String> KUBELET_CONDITIONS = Set.of("PodScheduled", "Ready", "Initialized", "ContainersReady",
            "PodReadyToStartContainers");

    /**
     * Top-level status fields the kubelet generates. Others (the scheduler's {@code nominatedNodeName}, fields of
     * newer API versions) are the apiserver's: the patch never removes them.
     */
    static final Set<String> KUBELET_STATUS_FIELDS = Set.of("phase", "conditions", "message", "reason", "hostIP",
            "hostIPs", "podIP", "podIPs", "startTime", "initContainerStatuses", "containerStatuses",
            "ephemeralContainerStatuses", "qosClass");

    /** What the sync needs to know of the kubelet's pods. */
    public interface Pods {
        /** The pod the kubelet runs under this UID (never a mirror pod). */
        Optional<Pod> pod(String uid);

        /** The apiserver's mirror pod of a static pod, as last seen. */
        Optional<Pod> mirrorPodOf(Pod staticPod);

        /** Whether the pod's containers are stopped and its resources reclaimed, so that it can be deleted. */
        boolean podResourcesReclaimed(String uid);
    }

    private final PodStatusClient client;
    private final StatusManager statusManager;
    private final Pods pods;
    /** The version last written per pod (upstream {@code apiStatusVersions}). */
    private final Map<String, Long> written = new ConcurrentHashMap<>();
    /** Pods deleted from the apiserver by this sync: never deleted twice. */
    private final Set<String> deleted = ConcurrentHashMap.newKeySet();
    /** Pods whose next write starts from a GET: the watched copy was refused as a base. */
    private final Set<String> freshRead = ConcurrentHashMap.newKeySet();
    private final LinkedHashSet<String> queue = new LinkedHashSet<>();
    private final ScheduledExecutorService batch = DaemonThreads.scheduler("status-batch");
    private final Thread worker;
    private volatile boolean closed;
    /** Stopping: the queued statuses are written, then the worker ends. */
    private volatile boolean draining;

    public ApiStatusSync(PodStatusClient client, StatusManager statusManager, Pods pods) {
        this.client = client;
        this.statusManager = statusManager;
        this.pods = pods;
        this.worker = Thread.ofPlatform().daemon().name("status-sync").unstarted(this::run);
        statusManager.addListener((pod, status) -> requestSync(pod.getMetadata().getUid()));
    }

    public void start() {
        worker.start();
        batch.scheduleWithFixedDelay(this::syncBatch, BATCH_PERIOD.toMillis(), BATCH_PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Queues a pod's status to be written (a new version, a mirror pod that appeared, a pod that terminated). */
    public void requestSync(String uid) {
        synchronized (queue) {
            queue.add(uid);
            queue.notifyAll();
        }
    }

    /** Upstream {@code syncBatch}: queues every pod whose latest status is not written yet, or that awaits deletion. */
    void syncBatch() {
        for (String uid : statusManager.uids()) {
            Optional<StatusManager.VersionedStatus> s = statusManager.getVersionedStatus(uid);
            Long w = written.get(uid);
            boolean behind = s.isPresent() && (w == null || w < s.get().version());
            boolean awaitsDeletion = !deleted.contains(uid) && pods.pod(uid)
                    .map(p -> p.getMetadata().getDeletionTimestamp() != null).orElse(false);
            if (behind || awaitsDeletion) {
                requestSync(uid);
            }
        }
        written.keySet().retainAll(statusManager.uids());
        deleted.retainAll(statusManager.uids());
    }

    private void run() {
        while (!closed) {
            String uid;
            synchronized (queue) {
                while (queue.isEmpty() && !closed) {
                    if (draining) {
                        return;
                    }
                    try {
                        queue.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                uid = queue.removeFirst();
            }
            try {
                syncPod(uid);
            } catch (ApiException e) {
                // Left unwritten: the next batch queues it again.
                log.warn("Failed to update status of pod {}: {}", uid, e.getMessage());
            } catch (RuntimeException e) {
                log.error("Status sync of pod {} failed", uid, e);
            }
        }
    }

    /** Writes one pod's latest status (upstream {@code syncPod}). */
    void syncPod(String uid) {
        Optional<Pod> known = pods.pod(uid);
        Optional<StatusManager.VersionedStatus> status = statusManager.getVersionedStatus(uid);
        if (known.isEmpty() || status.isEmpty()) {
            return; // removed meanwhile
        }
        Pod pod = known.get();
        Pod target = pod;
        boolean isStatic = ConfigAnnotations.isStaticPod(pod);
        if (isStatic) {
            Optional<Pod> mirror = pods.mirrorPodOf(pod);
            if (mirror.isEmpty() || !MirrorPods.isMirrorPodOf(mirror.get(), pod)) {
                log.debug("Static pod {} has no mirror pod of its hash yet: status not written", ConfigAnnotations.podFullName(pod));
                return;
            }
            target = mirror.get();
        }
        Long w = written.get(uid);
        boolean upToDate = w != null && w >= status.get().version();
        boolean deletable = !isStatic && pod.getMetadata().getDeletionTimestamp() != null && !deleted.contains(uid)
                && pods.podResourcesReclaimed(uid);
        if (upToDate && !deletable) {
            return;
        }
        String namespace = target.getMetadata().getNamespace();
        String name = target.getMetadata().getName();
        String targetUid = target.getMetadata().getUid();
        if (!upToDate) {
            // The pod as the watch last delivered it is the base of the patch: one request per status change
            // instead of a GET and a PATCH. The patch tests the UID and replaces whole fields, so a base that lags
            // behind the apiserver costs at most a redundant write; a patch the apiserver refuses is retried
            // from a fresh read.
            boolean fresh = freshRead.remove(uid) || target.getStatus() == null;
            Pod current = fresh ? client.getPod(namespace, name) : target;
            if (current == null) {
                log.debug("Pod {}/{} is gone from the apiserver: status not written", namespace, name);
                return;
            }
            if (!current.getMetadata().getUid().equals(targetUid)) {
                log.debug("Pod {}/{} was deleted and re-created (UID {}, ours {}): status not written", namespace, name,
                        current.getMetadata().getUid(), targetUid);
                return;
            }
            PodStatus apiStatus = current.getStatus() == null ? new PodStatus() : current.getStatus();
            PodStatus merged = mergePodStatus(apiStatus, status.get().status());
            ArrayNode patch = StatusPatch.between(targetUid,
                    current.getStatus() == null ? null : PodCodec.mapper().valueToTree(apiStatus),
                    PodCodec.mapper().valueToTree(merged), KUBELET_STATUS_FIELDS);
            if (!patch.isEmpty()) {
                try {
                    client.patchPodStatus(namespace, name, patch.toString());
                } catch (ApiException e) {
                    if (fresh) {
                        throw e;
                    }
                    log.debug("Status patch of pod {}/{} from the watched copy refused ({}): reading it afresh",
                            namespace, name, e.code());
                    freshRead.add(uid);
                    requestSync(uid);
                    return;
                }
                log.debug("Patched status of pod {}/{} to version {}: {}", namespace, name, status.get().version(), patch);
            }
            written.merge(uid, status.get().version(), Math::max);
        }
        if (deletable) {
            PodDeleter.DeleteResult r = client.deletePod(namespace, name, targetUid, 0);
            deleted.add(uid);
            log.info("Pod {}/{} fully terminated and removed from the apiserver: {}", namespace, name, r);
        }
    }

    /**
     * Upstream {@code mergePodStatus}: the kubelet's status, with the conditions the kubelet does not own kept as
     * the apiserver has them (and those of the kubelet's own that it does not own dropped). A condition the kubelet
     * shares ({@code DisruptionTarget}, which an eviction sets) replaces the apiserver's when the kubelet has one.
     * Unlike upstream it goes with the status that first makes the pod terminal: jkubelet does not hold the terminal
     * phase back until the containers have stopped, so both go together.
     */
    static PodStatus mergePodStatus(PodStatus apiStatus, PodStatus kubeletStatus) {
        List<PodCondition> conditions = new ArrayList<>();
        if (apiStatus.getConditions() != null) {
            for (PodCondition c : apiStatus.getConditions()) {
                if (!KUBELET_CONDITIONS.contains(c.getType())) {
                    conditions.add(c);
                }
            }
        }
        if (kubeletStatus.getConditions() != null) {
            for (PodCondition c : kubeletStatus.getConditions()) {
                if (KUBELET_CONDITIONS.contains(c.getType())) {
                    conditions.add(c);
                } else if (PodConditions.DISRUPTION_TARGET.equals(c.getType())) {
                    conditions.removeIf(old -> old.getType().equals(c.getType()));
                    conditions.add(c);
                }
            }
        }
        PodStatus merged = new PodStatusBuilder(kubeletStatus).build();
        merged.setConditions(conditions);
        return merged;
    }

    /**
     * Writes the statuses still queued, then stops; what is not written {@code within} is left (the next start
     * writes it, as every start syncs every pod's status).
     */
    public void stop(Duration within) {
        batch.shutdownNow();
        draining = true;
        synchronized (queue) {
            queue.notifyAll();
        }
        if (worker.getState() != Thread.State.NEW) {
            try {
                worker.join(within);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        close();
    }

    @Override
    public void close() {
        closed = true;
        batch.shutdownNow();
        synchronized (queue) {
            queue.notifyAll();
        }
        worker.interrupt();
    }
}
