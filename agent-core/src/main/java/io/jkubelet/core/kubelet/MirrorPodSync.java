package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.config.ConfigAnnotations;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.pod.MirrorClient;
import io.jkubelet.core.pod.MirrorPods;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The mirror pods that show this node's static pods in the apiserver: kept in step by each static pod's sync,
 * and deleted once their static pod is gone. Nothing on a standalone node.
 */
final class MirrorPodSync {
    private static final Logger log = LoggerFactory.getLogger(MirrorPodSync.class);

    private final Optional<MirrorClient> client;
    private final PodManager podManager;
    private final Consumer<String> statusSyncRequest;
    private final Executor executor;
    private final Set<String> orphanDeletes = ConcurrentHashMap.newKeySet();

    /**
     * @param statusSyncRequest asks the status writer to write a static pod's status (by UID) to its mirror pod
     * @param executor where orphaned mirror pods are deleted, off the loop
     */
    MirrorPodSync(Optional<MirrorClient> client, PodManager podManager, Consumer<String> statusSyncRequest,
                  Executor executor) {
        this.client = client;
        this.podManager = podManager;
        this.statusSyncRequest = statusSyncRequest;
        this.executor = executor;
    }

    /**
     * Upstream's mirror pod part of {@code SyncPod}: one that is being deleted or that shows an older version of
     * the manifest is deleted, and a missing one created. Failures are logged and left to the next sync: the
     * static pod runs whatever the apiserver says. Called on the static pod's worker.
     */
    void syncMirrorPod(Pod staticPod) {
        if (client.isEmpty()) {
            return;
        }
        try {
            Optional<Pod> mirror = podManager.mirrorPodOf(staticPod);
            boolean deleted = false;
            if (mirror.isPresent() && (mirror.get().getMetadata().getDeletionTimestamp() != null
                    || !MirrorPods.isMirrorPodOf(mirror.get(), staticPod))) {
                client.get().deleteMirrorPod(mirror.get());
                deleted = true;
            }
            if (mirror.isEmpty() || deleted) {
                Optional<Pod> created = client.get().createMirrorPod(staticPod);
                if (created.isPresent()) {
                    // Known at once, not only when the watch brings it: the next sync must not create it again.
                    podManager.addOrUpdate(created.get());
                    log.info("Created mirror pod for static pod {}", PodSpecs.format(staticPod));
                    statusSyncRequest.accept(staticPod.getMetadata().getUid());
                }
            }
        } catch (RuntimeException e) {
            log.warn("Failed to sync the mirror pod of static pod {}: {}", PodSpecs.format(staticPod), e.getMessage());
        }
    }

    /** Upstream {@code deleteOrphanedMirrorPods}: mirror pods whose static pod is gone, deleted off the loop. */
    void deleteOrphanedMirrorPods() {
        if (client.isEmpty()) {
            return;
        }
        for (Pod mirror : podManager.orphanedMirrorPods()) {
            String uid = mirror.getMetadata().getUid();
            if (!orphanDeletes.add(uid)) {
                continue; // a delete is already on its way
            }
            executor.execute(() -> {
                try {
                    client.get().deleteMirrorPod(mirror);
                } catch (RuntimeException e) {
                    log.warn("Failed to delete orphaned mirror pod {}: {}", ConfigAnnotations.podFullName(mirror), e.getMessage());
                } finally {
                    orphanDeletes.remove(uid);
                }
            });
        }
    }
}
