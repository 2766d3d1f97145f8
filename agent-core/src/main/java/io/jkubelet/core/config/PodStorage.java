package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pods of every source, and the merge of a source's update into them ({@code podStorage} in
 * {@code pkg/kubelet/config/config.go}, incremental mode).
 *
 * <p>Thread-safe: one lock serialises merges and keeps the updates they emit in order. A merge blocks
 * while the updates queue is full, so a source that runs ahead of the sync loop waits for it.
 */
final class PodStorage {

    private static final Logger log = LoggerFactory.getLogger(PodStorage.class);

    private final PodConfig.Output updates;
    private final PodEventRecorder recorder;
    private final Clock clock;

    private final ReentrantLock lock = new ReentrantLock();
    /** source -> pod UID -> the kubelet's own copy of the pod, in the order the source first listed them. */
    private final Map<String, Map<String, Pod>> pods = new HashMap<>();
    private final Set<String> sourcesSeen = new HashSet<>();
    /** source -> UIDs of pods dropped for a duplicate full name, so each is reported once. */
    private final Map<String, Set<String>> droppedDuplicates = new HashMap<>();

    PodStorage(PodConfig.Output updates, PodEventRecorder recorder, Clock clock) {
        this.updates = updates;
        this.recorder = recorder;
        this.clock = clock;
    }

    /**
     * Merges {@code change} from {@code source} and emits REMOVE, ADD, UPDATE, DELETE, the empty
     * "source ready" ADD, then RECONCILE, each only when it has pods (the ready signal excepted).
     * Returns early, with the interrupt flag set, when interrupted while the queue is full.
     */
    void merge(String source, PodUpdate change) {
        lock.lock();
        try {
            boolean seenBefore = sourcesSeen.contains(source);
            Changes changes = computeChanges(source, change);
            boolean firstSet = !seenBefore && sourcesSeen.contains(source);
            try {
                deliver(source, PodOperation.REMOVE, changes.removes);
                deliver(source, PodOperation.ADD, changes.adds);
                deliver(source, PodOperation.UPDATE, changes.updates);
                deliver(source, PodOperation.DELETE, changes.deletes);
                if (firstSet && changes.adds.isEmpty() && changes.updates.isEmpty() && changes.deletes.isEmpty()) {
                    // The kubelet takes an empty ADD as "this source has been seen": it is ready.
                    updates.put(new PodUpdate(List.of(), PodOperation.ADD, source));
                }
                deliver(source, PodOperation.RECONCILE, changes.reconciles);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                log.debug("Interrupted while delivering the updates of source {}", source);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Emits every pod of every source as one SET from {@link PodSources#ALL}. */
    void sync() throws InterruptedException {
        lock.lock();
        try {
            updates.put(new PodUpdate(mergedState(), PodOperation.SET, PodSources.ALL));
        } finally {
            lock.unlock();
        }
    }

    /** Copies of every pod of every source. */
    List<Pod> mergedState() {
        lock.lock();
        try {
            List<Pod> all = new ArrayList<>();
            for (Map<String, Pod> sourcePods : pods.values()) {
                for (Pod pod : sourcePods.values()) {
                    all.add(PodCodec.deepCopy(pod));
                }
            }
            return all;
        } finally {
            lock.unlock();
        }
    }

    boolean seenSources(Set<String> sources) {
        lock.lock();
        try {
            return sourcesSeen.containsAll(sources);
        } finally {
            lock.unlock();
        }
    }

    private void deliver(String source, PodOperation op, List<Pod> changed) throws InterruptedException {
        if (changed.isEmpty()) {
            return;
        }
        List<Pod> copies = changed.stream().map(PodCodec::deepCopy).toList();
        PodUpdate update = new PodUpdate(copies, op, source);
        log.debug("Delivering {}", update);
        updates.put(update);
    }

    private Changes computeChanges(String source, PodUpdate change) {
        Changes changes = new Changes();
        Map<String, Pod> sourcePods = pods.getOrDefault(source, new LinkedHashMap<>());
        // The source keeps its pods: work on copies, which become the kubelet's own.
        List<Pod> incoming = change.pods().stream().map(PodStorage::ownCopy).toList();
        switch (change.op()) {
            case ADD, UPDATE, DELETE -> {
                log.debug("{} pods from source {}", change.op(), source);
                updatePods(source, incoming, sourcePods, sourcePods, changes);
            }
            case REMOVE -> {
                log.debug("Removing pods from source {}", source);
                for (Pod pod : incoming) {
                    Pod existing = sourcePods.remove(uid(pod));
                    if (existing != null) {
                        changes.removes.add(existing);
                    }
                }
            }
            case SET -> {
                log.debug("Setting pods for source {}", source);
                sourcesSeen.add(source);
                Map<String, Pod> oldPods = sourcePods;
                sourcePods = new LinkedHashMap<>();
                updatePods(source, incoming, oldPods, sourcePods, changes);
                for (Map.Entry<String, Pod> old : oldPods.entrySet()) {
                    if (!sourcePods.containsKey(old.getKey())) {
                        changes.removes.add(old.getValue());
                    }
                }
            }
            default -> log.info("Received an update of type {} from source {}; ignoring it", change.op(), source);
        }
        pods.put(source, sourcePods);
        return changes;
    }

    /** Merges {@code newPods} into {@code result}, comparing with {@code oldPods} (may be the same map). */
    private void updatePods(String source, List<Pod> newPods, Map<String, Pod> oldPods, Map<String, Pod> result,
            Changes changes) {
        for (Pod ref : filterInvalidPods(source, newPods)) {
            ObjectMeta meta = ref.getMetadata();
            if (meta.getAnnotations() == null) {
                meta.setAnnotations(new LinkedHashMap<>());
            }
            // Annotate the pod with its source before any comparison.
            meta.getAnnotations().put(ConfigAnnotations.CONFIG_SOURCE, source);
            Pod existing = oldPods.get(uid(ref));
            if (existing != null) {
                result.put(uid(ref), existing);
                switch (checkAndUpdatePod(existing, ref)) {
                    case UPDATE -> changes.updates.add(existing);
                    case RECONCILE -> changes.reconciles.add(existing);
                    case DELETE -> changes.deletes.add(existing);
                    default -> { }
                }
                continue;
            }
            meta.getAnnotations().put(ConfigAnnotations.CONFIG_FIRST_SEEN, Timestamps.rfc3339Nano(clock.instant()));
            log.debug("Received a new pod {} from source {}", ConfigAnnotations.podFullName(ref), source);
            result.put(uid(ref), ref);
            changes.adds.add(ref);
        }
    }

    /**
     * Drops every pod whose full name an earlier pod of the same update has. Reports each dropped pod
     * once (log line and {@code FailedValidation} event), not on every snapshot that still has it.
     */
    private List<Pod> filterInvalidPods(String source, List<Pod> newPods) {
        Set<String> names = new HashSet<>();
        Set<String> previouslyDropped = droppedDuplicates.getOrDefault(source, Set.of());
        Set<String> dropped = new HashSet<>();
        List<Pod> filtered = new ArrayList<>(newPods.size());
        for (int i = 0; i < newPods.size(); i++) {
            Pod pod = newPods.get(i);
            String name = ConfigAnnotations.podFullName(pod);
            if (!names.add(name)) {
                dropped.add(uid(pod));
                if (!previouslyDropped.contains(uid(pod))) {
                    log.warn("Pod failed validation due to duplicate pod name, ignoring: pod {} (index {}, UID {}) from"
                            + " source {}{}", name, i, uid(pod), source, describeOrigin(pod));
                    recorder.warning(pod, PodEventRecorder.FAILED_VALIDATION, "Error validating pod " + name
                            + " from " + source + " due to duplicate pod name \"" + pod.getMetadata().getName()
                            + "\", ignoring");
                }
                continue;
            }
            filtered.add(pod);
        }
        droppedDuplicates.put(source, dropped);
        return filtered;
    }

    private static String describeOrigin(Pod pod) {
        return pod.getMetadata().getAnnotations() != null
                && pod.getMetadata().getAnnotations().containsKey(ConfigAnnotations.CONFIG_HASH)
                ? " (hash " + pod.getMetadata().getAnnotations().get(ConfigAnnotations.CONFIG_HASH) + ")" : "";
    }

    private enum Outcome { NONE, UPDATE, RECONCILE, DELETE }

    /**
     * Brings {@code existing} up to date with {@code ref} and says what kind of change it was
     * ({@code checkAndUpdatePod}): a semantic change is an UPDATE, or a DELETE when it sets the
     * deletion timestamp; a change of status alone is a RECONCILE.
     */
    private static Outcome checkAndUpdatePod(Pod existing, Pod ref) {
        if (!podsDifferSemantically(existing, ref)) {
            if (!Objects.equals(existing.getStatus(), ref.getStatus())) {
                // The kubelet is the source of truth for status: reconcile it.
                existing.setStatus(ref.getStatus());
                return Outcome.RECONCILE;
            }
            return Outcome.NONE;
        }
        ObjectMeta existingMeta = existing.getMetadata();
        ObjectMeta refMeta = ref.getMetadata();
        existing.setSpec(ref.getSpec());
        existingMeta.setLabels(refMeta.getLabels());
        existingMeta.setDeletionTimestamp(refMeta.getDeletionTimestamp());
        existingMeta.setDeletionGracePeriodSeconds(refMeta.getDeletionGracePeriodSeconds());
        existingMeta.setGeneration(refMeta.getGeneration());
        existing.setStatus(ref.getStatus());
        updateAnnotations(existing, ref);
        return refMeta.getDeletionTimestamp() != null ? Outcome.DELETE : Outcome.UPDATE;
    }

    static boolean podsDifferSemantically(Pod existing, Pod ref) {
        ObjectMeta a = existing.getMetadata();
        ObjectMeta b = ref.getMetadata();
        return !(Objects.equals(existing.getSpec(), ref.getSpec())
                && Objects.equals(orEmpty(a.getLabels()), orEmpty(b.getLabels()))
                && Objects.equals(a.getDeletionTimestamp(), b.getDeletionTimestamp())
                && Objects.equals(a.getDeletionGracePeriodSeconds(), b.getDeletionGracePeriodSeconds())
                && nonLocal(a.getAnnotations()).equals(nonLocal(b.getAnnotations())));
    }

    /** The source's annotations, plus the kubelet's local ones (source, mirror, first seen) from {@code existing}. */
    private static void updateAnnotations(Pod existing, Pod ref) {
        Map<String, String> annotations = new LinkedHashMap<>(orEmpty(ref.getMetadata().getAnnotations()));
        Map<String, String> existingAnnotations = orEmpty(existing.getMetadata().getAnnotations());
        for (String key : ConfigAnnotations.LOCAL_ANNOTATIONS) {
            if (existingAnnotations.containsKey(key)) {
                annotations.put(key, existingAnnotations.get(key));
            }
        }
        existing.getMetadata().setAnnotations(annotations);
    }

    private static Map<String, String> nonLocal(Map<String, String> annotations) {
        Map<String, String> result = new HashMap<>(orEmpty(annotations));
        result.keySet().removeAll(ConfigAnnotations.LOCAL_ANNOTATIONS);
        return result;
    }

    private static Map<String, String> orEmpty(Map<String, String> map) {
        return map == null ? Map.of() : map;
    }

    private static Pod ownCopy(Pod pod) {
        Pod copy = PodCodec.deepCopy(pod);
        if (copy.getMetadata() == null) {
            copy.setMetadata(new ObjectMeta());
        }
        return copy;
    }

    private static String uid(Pod pod) {
        String uid = pod.getMetadata() == null ? null : pod.getMetadata().getUid();
        return uid == null ? "" : uid;
    }

    private static final class Changes {
        final List<Pod> adds = new ArrayList<>();
        final List<Pod> updates = new ArrayList<>();
        final List<Pod> deletes = new ArrayList<>();
        final List<Pod> removes = new ArrayList<>();
        final List<Pod> reconciles = new ArrayList<>();
    }
}
