package io.jkubelet.core.cm;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.podutil.PodSpecs;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The test of upstream's {@code removeStaleState}, which its CPU and memory managers each write out (its "TODO: move
 * the method to the upper level"): the containers a manager still holds something for that are in no active pod, so
 * that what they hold goes back.
 */
public final class StaleContainers {
    /** A container by its pod's UID and its name, as the managers' state files key it. */
    public record Ref(String podUid, String containerName) {}

    private StaleContainers() {
    }

    /**
     * @param held pod UID → container name → what the manager holds for it
     * @param activePods the pods whose containers (init, sidecar and app) keep what they hold
     * @return the containers of {@code held} in none of {@code activePods}, in {@code held}'s order
     */
    public static List<Ref> of(Map<String, ? extends Map<String, ?>> held, Collection<Pod> activePods) {
        Set<Ref> active = new HashSet<>();
        for (Pod pod : activePods) {
            for (Container c : PodSpecs.allContainers(pod)) {
                active.add(new Ref(pod.getMetadata().getUid(), c.getName()));
            }
        }
        List<Ref> stale = new ArrayList<>();
        held.forEach((uid, containers) -> containers.keySet().forEach(name -> {
            if (!active.contains(new Ref(uid, name))) {
                stale.add(new Ref(uid, name));
            }
        }));
        return stale;
    }
}
