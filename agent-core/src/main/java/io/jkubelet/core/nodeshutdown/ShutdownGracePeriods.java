package io.jkubelet.core.nodeshutdown;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.apis.config.ShutdownGracePeriodByPodPriority;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How the node's shutdown grace period is split among pods (upstream {@code migrateConfig}, {@code groupByPriority},
 * {@code periodRequested}): pure functions of the configuration and the active pods.
 */
public final class ShutdownGracePeriods {
    /** Upstream {@code scheduling.DefaultPriorityWhenNoDefaultClassExists}: the priority of a pod that names none. */
    static final int DEFAULT_PRIORITY = 0;
    /** Upstream {@code scheduling.SystemCriticalPriority}: the least priority of {@code system-cluster-critical}. */
    static final int SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

    private ShutdownGracePeriods() {}

    /**
     * The ranges, lowest priority first: {@code shutdownGracePeriodByPodPriority} when it is set and the
     * {@code GracefulNodeShutdownBasedOnPodPriority} gate is on; else the two ranges {@code shutdownGracePeriod} and
     * {@code shutdownGracePeriodCriticalPods} make (regular pods get the difference, critical ones the rest); empty
     * when nothing is configured, and the node then shuts down at once.
     */
    public static List<ShutdownGracePeriod> of(Duration shutdownGracePeriod, Duration shutdownGracePeriodCriticalPods,
            List<ShutdownGracePeriodByPodPriority> byPodPriority, boolean basedOnPodPriority) {
        List<ShutdownGracePeriod> periods = new ArrayList<>();
        if (basedOnPodPriority && byPodPriority != null && !byPodPriority.isEmpty()) {
            byPodPriority.forEach(p -> periods.add(new ShutdownGracePeriod(p.priority(), p.shutdownGracePeriodSeconds())));
        } else {
            periods.addAll(migrate(shutdownGracePeriod, shutdownGracePeriodCriticalPods));
        }
        periods.sort(Comparator.comparingInt(ShutdownGracePeriod::priority));
        return List.copyOf(periods);
    }

    /** Upstream {@code migrateConfig}: the two-range form of {@code shutdownGracePeriod}/{@code CriticalPods}. */
    static List<ShutdownGracePeriod> migrate(Duration requested, Duration critical) {
        if (requested.isZero()) {
            return List.of();
        }
        Duration regular = requested.minus(critical);
        if (regular.isNegative()) {
            return List.of();
        }
        return List.of(new ShutdownGracePeriod(DEFAULT_PRIORITY, regular.toSeconds()),
                new ShutdownGracePeriod(SYSTEM_CRITICAL_PRIORITY, requested.minus(regular).toSeconds()));
    }

    /** Upstream {@code periodRequested}: the whole shutdown's length, the sum of the ranges' periods. */
    public static Duration periodRequested(List<ShutdownGracePeriod> periods) {
        return Duration.ofSeconds(periods.stream().mapToLong(ShutdownGracePeriod::shutdownGracePeriodSeconds).sum());
    }

    /**
     * Upstream {@code groupByPriority}: one group per range (in the ranges' order), each pod in the highest range whose
     * priority is at most its own; pods below the lowest range go to the lowest, a pod without a priority counts as 0.
     */
    public static List<PodShutdownGroup> groupByPriority(List<ShutdownGracePeriod> periods, List<Pod> pods) {
        List<List<Pod>> members = new ArrayList<>();
        periods.forEach(p -> members.add(new ArrayList<>()));
        for (Pod pod : pods) {
            Integer p = pod.getSpec() == null ? null : pod.getSpec().getPriority();
            int priority = p == null ? 0 : p;
            int index = 0;
            for (int i = 0; i < periods.size(); i++) {
                if (periods.get(i).priority() <= priority) {
                    index = i;
                }
            }
            members.get(index).add(pod);
        }
        List<PodShutdownGroup> groups = new ArrayList<>();
        for (int i = 0; i < periods.size(); i++) {
            groups.add(new PodShutdownGroup(periods.get(i), members.get(i)));
        }
        return groups;
    }
}
