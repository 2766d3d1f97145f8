package io.jkubelet.core.eviction;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.PodStats;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Why a pod was evicted, in upstream's words ({@code evictionMessage}): the resource the node was low on, the
 * threshold and what was available, and each container that used more of it than it requested, e.g. "The node was low
 * on resource: memory. Threshold quantity: 100Mi, available: 51200Ki. Container app was using 204800Ki, request is 0,
 * has larger consumption of memory. ". Pure.
 */
final class EvictionMessage {
    static final String NODE_LOW = "The node was low on resource: %s. ";
    static final String CONTAINER = "Container %s was using %s, request is %s, has larger consumption of %s. ";

    private EvictionMessage() {
    }

    static String of(Signal.Resource resource, Pod pod, SignalObservations observations, List<Threshold> thresholds) {
        StringBuilder message = new StringBuilder(NODE_LOW.formatted(resource.apiName()));
        Thresholds.thresholdMetInfo(resource, thresholds, observations).ifPresent(message::append);
        Optional<PodStats> podStats = observations.podStats(pod.getMetadata().getUid());
        if (podStats.isEmpty()) {
            return message.toString();
        }
        // Ephemeral containers cannot request anything, so only these are blamed.
        List<Container> containers = new ArrayList<>(PodSpecs.containers(pod));
        containers.addAll(PodSpecs.initContainers(pod));
        for (ContainerStats stats : podStats.get().containers()) {
            for (Container container : containers) {
                if (!container.getName().equals(stats.name())) {
                    continue;
                }
                Optional<Long> usage = usage(resource, stats);
                Optional<Quantities.Parsed> request = request(container, resource);
                BigDecimal requested = request.map(Quantities.Parsed::value).orElse(BigDecimal.ZERO);
                if (usage.isPresent() && BigDecimal.valueOf(usage.get()).compareTo(requested) > 0) {
                    message.append(CONTAINER.formatted(container.getName(), Quantities.binary(usage.get()),
                            request.map(Quantities.Parsed::text).orElse("0"), resource.apiName()));
                }
                break;
            }
        }
        return message.toString();
    }

    /** Working set for memory; writable layer plus logs for ephemeral storage; nothing for other resources. */
    private static Optional<Long> usage(Signal.Resource resource, ContainerStats stats) {
        return switch (resource) {
            case MEMORY -> stats.memory() == null ? Optional.empty() : Optional.ofNullable(stats.memory().workingSetBytes());
            case EPHEMERAL_STORAGE -> stats.rootfs() == null || stats.rootfs().usedBytes() == null || stats.logs() == null
                    || stats.logs().usedBytes() == null ? Optional.empty()
                    : Optional.of(stats.rootfs().usedBytes() + stats.logs().usedBytes());
            default -> Optional.empty();
        };
    }

    private static Optional<Quantities.Parsed> request(Container container, Signal.Resource resource) {
        Map<String, Quantity> requests = container.getResources() == null ? null : container.getResources().getRequests();
        Quantity q = requests == null ? null : requests.get(resource.apiName());
        return q == null ? Optional.empty() : Optional.of(Quantities.of(q));
    }
}
