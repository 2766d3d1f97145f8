package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pods this node should run, by UID (upstream {@code pod.Manager}): what the sources last said.
 * Thread-safe; readers get snapshots.
 */
public final class PodManager {
    private final Map<String, Pod> pods = new LinkedHashMap<>();

    public synchronized void addOrUpdate(Pod pod) {
        pods.put(pod.getMetadata().getUid(), pod);
    }

    public synchronized void remove(Pod pod) {
        pods.remove(pod.getMetadata().getUid());
    }

    public synchronized Optional<Pod> get(String uid) {
        return Optional.ofNullable(pods.get(uid));
    }

    public synchronized List<Pod> pods() {
        List<Pod> l = new ArrayList<>(pods.values());
        l.sort(Comparator.comparing((Pod p) -> p.getMetadata().getNamespace()).thenComparing(p -> p.getMetadata().getName()));
        return l;
    }

    public synchronized java.util.Set<String> uids() {
        return new java.util.HashSet<>(pods.keySet());
    }
}
