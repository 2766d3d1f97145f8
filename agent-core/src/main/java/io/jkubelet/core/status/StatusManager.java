package io.jkubelet.core.status;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;

import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

/**
 * The kubelet's latest status per pod (upstream {@code status.Manager}): versioned, with condition transition
 * times kept while a condition's status stays the same, {@code startTime} set once, terminal phases never
 * left, and no-op writes skipped. Listeners (the apiserver sync, when connected) hear only real changes.
 * Thread-safe.
 */
public final class StatusManager {
    /** A status and the version it was written at; a newer version always supersedes. */
    public record VersionedStatus(PodStatus status, long version) {}

    private final Clock clock;
    private final Map<String, VersionedStatus> statuses = new ConcurrentHashMap<>();
    private final List<BiConsumer<Pod, VersionedStatus>> listeners = new CopyOnWriteArrayList<>();

    public StatusManager(Clock clock) {
        this.clock = clock;
    }

    public void addListener(BiConsumer<Pod, VersionedStatus> listener) {
        listeners.add(listener);
    }

    public Optional<PodStatus> getPodStatus(String uid) {
        VersionedStatus v = statuses.get(uid);
        return v == null ? Optional.empty() : Optional.of(v.status);
    }

    /**
     * The pod with its latest status, for {@code /pods}: a shallow pod whose metadata, spec and status are shared, never
     * changed in place (they are replaced on change) and only read; a deep copy per pod per request was the bulk of a
     * {@code /pods} request's cost. The pod itself when it has no status yet.
     */
    public Pod withLatestStatus(Pod pod) {
        VersionedStatus v = statuses.get(pod.getMetadata().getUid());
        return v == null ? pod : new Pod(pod.getApiVersion(), pod.getKind(), pod.getMetadata(), pod.getSpec(), v.status);
    }

    /** The latest status of a pod with its version, for the apiserver sync. */
    public Optional<VersionedStatus> getVersionedStatus(String uid) {
        return Optional.ofNullable(statuses.get(uid));
    }

    /** UIDs of every pod with a status. */
    public Set<String> uids() {
        return new HashSet<>(statuses.keySet());
    }

    /** Records a newly generated status; returns whether anything changed. */
    public boolean setPodStatus(Pod pod, PodStatus generated) {
        String uid = pod.getMetadata().getUid();
        VersionedStatus[] written = new VersionedStatus[1];
        statuses.compute(uid, (k, old) -> {
            PodStatus oldStatus = old == null ? pod.getStatus() : old.status;
            PodStatus s = new PodStatusBuilder(generated).build();
            String now = PodStatusGenerator.time(clock.instant());
            if (oldStatus != null && PodPhases.isTerminal(oldStatus.getPhase()) && !PodPhases.isTerminal(s.getPhase())) {
                s.setPhase(oldStatus.getPhase());
            }
            for (PodCondition c : s.getConditions()) {
                Optional<PodCondition> prev = oldStatus == null || oldStatus.getConditions() == null ? Optional.empty()
                        : oldStatus.getConditions().stream().filter(p -> p.getType().equals(c.getType())).findFirst();
                if (prev.isPresent() && Objects.equals(prev.get().getStatus(), c.getStatus())
                        && prev.get().getLastTransitionTime() != null) {
                    c.setLastTransitionTime(prev.get().getLastTransitionTime());
                } else if (c.getLastTransitionTime() == null) {
                    c.setLastTransitionTime(now);
                }
            }
            if (s.getStartTime() == null) {
                s.setStartTime(oldStatus != null && oldStatus.getStartTime() != null ? oldStatus.getStartTime() : now);
            }
            if (old != null && old.status.equals(s)) {
                return old;
            }
            written[0] = new VersionedStatus(s, old == null ? 1 : old.version + 1);
            return written[0];
        });
        if (written[0] == null) {
            return false;
        }
        for (var l : listeners) {
            l.accept(pod, written[0]);
        }
        return true;
    }

    public void removeOrphanedStatuses(Set<String> knownUids) {
        statuses.keySet().retainAll(knownUids);
    }
}
