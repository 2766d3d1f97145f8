package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.runtime.ContainerState;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which dead containers and sandboxes container GC removes (upstream {@code kuberuntime_gc.go}'s
 * {@code evictContainers} and {@code evictSandboxes}), decided from what the runtime lists and nothing else, so
 * that the policy is tested without a runtime.
 */
final class Evictables {
    private Evictables() {}

    /**
     * A container as container GC sees it.
     *
     * @param attempt the instance's restart count: it orders instances a runtime lists as created in the same second
     */
    record GcContainer(String id, String podUid, String name, Instant createdAt, int attempt, ContainerState state) {
        boolean running() {
            return state == ContainerState.CONTAINER_RUNNING;
        }
    }

    /** A sandbox as container GC sees it; {@code attempt} orders sandboxes created in the same second. */
    record GcSandbox(String id, String podUid, Instant createdAt, int attempt, boolean ready) {}

    /** An evict unit: the dead instances of one container of one pod (upstream {@code evictUnit}). */
    private record Unit(String podUid, String name) {}

    /**
     * Newest first, as upstream's {@code byCreated}. Docker lists creation times in whole seconds, so instances made
     * within one second are ordered by attempt; the id settles what is left, so the order never depends on the listing.
     */
    private static final Comparator<GcContainer> NEWEST_FIRST = Comparator.comparing(GcContainer::createdAt)
            .thenComparingInt(GcContainer::attempt).reversed().thenComparing(GcContainer::id);
    private static final Comparator<GcSandbox> NEWEST_SANDBOX_FIRST = Comparator.comparing(GcSandbox::createdAt)
            .thenComparingInt(GcSandbox::attempt).reversed().thenComparing(GcSandbox::id);

    /**
     * The containers to remove, each step's oldest first (upstream {@code evictContainers}). Evictable are the
     * containers not running and created at least {@code minAge} before {@code now}. Once every source has reported,
     * those of pods that may go go whole; then each container of a pod keeps its newest
     * {@code maxPerPodContainer} dead instances, then the node keeps {@code maxContainers}: an equal share per
     * container (at least one), then the newest across the node.
     *
     * <p>Unlike upstream, the newest instance of each container of a pod that stays is never removed, whatever the
     * policy: it is the container's last state and restart count, and without it a {@code restartPolicy: Never}
     * container would be started again.
     *
     * @param podRemovable whether everything of a pod may go
     */
    static List<GcContainer> containers(List<GcContainer> all, GCPolicy policy, Instant now, boolean allSourcesReady,
                                        Predicate<String> podRemovable) {
        Instant newestGcTime = now.minus(policy.minAge());
        Map<Unit, List<GcContainer>> units = new LinkedHashMap<>();
        for (GcContainer c : all) {
            if (!c.running() && !c.createdAt().isAfter(newestGcTime)) {
                units.computeIfAbsent(new Unit(c.podUid(), c.name()), k -> new ArrayList<>()).add(c);
            }
        }
        List<GcContainer> remove = new ArrayList<>();
        if (allSourcesReady) {
            units.entrySet().removeIf(unit -> {
                if (!podRemovable.test(unit.getKey().podUid())) {
                    return false;
                }
                removeOldest(unit.getValue(), unit.getValue().size(), c -> true, remove);
                return true;
            });
        }
        Set<String> latest = latestDeadInstances(all);
        Predicate<GcContainer> mayGo = c -> !latest.contains(c.id());
        if (policy.maxPerPodContainer() >= 0) {
            keepPerUnit(units, policy.maxPerPodContainer(), mayGo, remove);
        }
        if (policy.maxContainers() >= 0 && count(units) > policy.maxContainers()) {
            keepPerUnit(units, Math.max(1, policy.maxContainers() / units.size()), mayGo, remove);
            int left = count(units);
            if (left > policy.maxContainers()) {
                List<GcContainer> node = new ArrayList<>();
                units.values().forEach(node::addAll);
                removeOldest(node, left - policy.maxContainers(), mayGo, remove);
            }
        }
        return remove;
    }

    /**
     * The sandboxes to remove (upstream {@code evictSandboxes}): those neither ready nor holding a container; of a
     * pod that stays, all but its newest sandbox, of a pod that may go, all.
     *
     * @param withContainers the sandboxes some container (of any state) still belongs to
     */
    static List<String> sandboxes(List<GcSandbox> all, Set<String> withContainers, Predicate<String> podRemovable) {
        Map<String, List<GcSandbox>> byPod = new LinkedHashMap<>();
        for (GcSandbox s : all) {
            byPod.computeIfAbsent(s.podUid(), k -> new ArrayList<>()).add(s);
        }
        List<String> remove = new ArrayList<>();
        byPod.forEach((uid, sandboxes) -> {
            List<GcSandbox> sorted = new ArrayList<>(sandboxes);
            sorted.sort(NEWEST_SANDBOX_FIRST);
            int keep = podRemovable.test(uid) ? 0 : 1;
            for (int i = sorted.size() - 1; i >= keep; i--) {
                GcSandbox s = sorted.get(i);
                if (!s.ready() && !withContainers.contains(s.id())) {
                    remove.add(s.id());
                }
            }
        });
        return remove;
    }

    private static void keepPerUnit(Map<Unit, List<GcContainer>> units, int keep, Predicate<GcContainer> mayGo,
                                    List<GcContainer> remove) {
        units.replaceAll((unit, dead) -> dead.size() > keep ? removeOldest(dead, dead.size() - keep, mayGo, remove) : dead);
    }

    /**
     * Adds the oldest {@code n} of {@code containers} that may go to {@code remove}, oldest first, and returns the
     * rest. Those that may not go are not kept in the count either (upstream assumes its removals succeed, so that a
     * failing one does not make it remove more).
     */
    private static List<GcContainer> removeOldest(List<GcContainer> containers, int n, Predicate<GcContainer> mayGo,
                                                  List<GcContainer> remove) {
        List<GcContainer> sorted = new ArrayList<>(containers);
        sorted.sort(NEWEST_FIRST);
        int keep = sorted.size() - n;
        for (int i = sorted.size() - 1; i >= keep; i--) {
            if (mayGo.test(sorted.get(i))) {
                remove.add(sorted.get(i));
            }
        }
        return new ArrayList<>(sorted.subList(0, keep));
    }

    /** The ids of the containers whose newest instance is dead: that instance is what the pod's status shows. */
    private static Set<String> latestDeadInstances(List<GcContainer> all) {
        Map<Unit, GcContainer> newest = new HashMap<>();
        for (GcContainer c : all) {
            newest.merge(new Unit(c.podUid(), c.name()), c, (a, b) -> NEWEST_FIRST.compare(a, b) <= 0 ? a : b);
        }
        Set<String> ids = new HashSet<>();
        newest.values().stream().filter(c -> !c.running()).forEach(c -> ids.add(c.id()));
        return ids;
    }

    private static int count(Map<Unit, List<GcContainer>> units) {
        return units.values().stream().mapToInt(List::size).sum();
    }
}
