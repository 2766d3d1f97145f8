package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.config.ConfigAnnotations;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The pods this node should run, by UID, and the mirror pods the apiserver holds for its static pods, by full
 * name (upstream {@code pod.Manager}): what the sources last said. A mirror pod is never run: it only shows a
 * static pod in the apiserver. Thread-safe; readers get snapshots.
 */
public final class PodManager {
    private final Map<String, Pod> pods = new LinkedHashMap<>();
    /** Mirror pods by {@code <name>_<namespace>}, the key they share with their static pod. */
    private final Map<String, Pod> mirrorPods = new HashMap<>();

    public synchronized void addOrUpdate(Pod pod) {
        if (ConfigAnnotations.isMirrorPod(pod)) {
            mirrorPods.put(ConfigAnnotations.podFullName(pod), pod);
        } else {
            pods.put(pod.getMetadata().getUid(), pod);
        }
    }

    public synchronized void remove(Pod pod) {
        if (ConfigAnnotations.isMirrorPod(pod)) {
            Pod known = mirrorPods.get(ConfigAnnotations.podFullName(pod));
            // Only the same mirror pod: a newer one of the same name may already have replaced it.
            if (known != null && known.getMetadata().getUid().equals(pod.getMetadata().getUid())) {
                mirrorPods.remove(ConfigAnnotations.podFullName(pod));
            }
        } else {
            pods.remove(pod.getMetadata().getUid());
        }
    }

    public synchronized Optional<Pod> get(String uid) {
        return Optional.ofNullable(pods.get(uid));
    }

    /** The pods to run (never mirror pods), sorted by namespace and name. */
    public synchronized List<Pod> pods() {
        List<Pod> l = new ArrayList<>(pods.values());
        l.sort(Comparator.comparing((Pod p) -> p.getMetadata().getNamespace()).thenComparing(p -> p.getMetadata().getName()));
        return l;
    }

    public synchronized Set<String> uids() {
        return new HashSet<>(pods.keySet());
    }

    /** The mirror pod that shows {@code staticPod} in the apiserver, if the apiserver has one of its name. */
    public synchronized Optional<Pod> mirrorPodOf(Pod staticPod) {
        return Optional.ofNullable(mirrorPods.get(ConfigAnnotations.podFullName(staticPod)));
    }

    /** The static pod a mirror pod of this full name stands for. */
    public synchronized Optional<Pod> staticPodByFullName(String fullName) {
        for (Pod p : pods.values()) {
            if (ConfigAnnotations.isStaticPod(p) && ConfigAnnotations.podFullName(p).equals(fullName)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Mirror pods whose static pod is gone (upstream {@code getOrphanedMirrorPodNames}). */
    public synchronized List<Pod> orphanedMirrorPods() {
        Set<String> staticNames = new HashSet<>();
        for (Pod p : pods.values()) {
            if (ConfigAnnotations.isStaticPod(p)) {
                staticNames.add(ConfigAnnotations.podFullName(p));
            }
        }
        List<Pod> orphans = new ArrayList<>();
        for (Map.Entry<String, Pod> e : mirrorPods.entrySet()) {
            if (!staticNames.contains(e.getKey())) {
                orphans.add(e.getValue());
            }
        }
        return orphans;
    }
}
