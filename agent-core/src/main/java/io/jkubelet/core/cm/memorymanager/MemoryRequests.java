package io.jkubelet.core.cm.memorymanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.podutil.PodSpecs;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The memory a container or a pod asks the memory manager for (upstream's {@code getRequestedResources} and
 * {@code getPodRequestedResources}): requests of {@code memory} and {@code hugepages-<size>}, in bytes, sorted by type.
 */
final class MemoryRequests {
    static final String MEMORY = "memory";
    private static final String HUGEPAGES_PREFIX = "hugepages-";

    private MemoryRequests() {}

    /** Upstream's {@code IsHugePageResourceName} or {@code memory}. */
    static boolean isMemoryType(String resource) {
        return MEMORY.equals(resource) || resource.startsWith(HUGEPAGES_PREFIX);
    }

    /**
     * The container's requests of memory types.
     *
     * @throws IllegalArgumentException with upstream's message when a request is not a whole number of bytes
     */
    static Map<String, Long> container(Container container) {
        Map<String, Long> out = new TreeMap<>();
        Map<String, Quantity> requests = container.getResources() == null ? null : container.getResources().getRequests();
        if (requests == null) {
            return out;
        }
        requests.forEach((name, q) -> {
            if (isMemoryType(name)) {
                try {
                    out.put(name, q.getNumericalAmount().longValueExact());
                } catch (ArithmeticException e) {
                    throw new IllegalArgumentException("[memorymanager] failed to represent quantity as int64");
                }
            }
        });
        return out;
    }

    /**
     * The pod's requests, as admission counts them with sidecars: the app containers' and restartable init
     * containers' sum, or the most any regular init container needs beside the restartable ones started before it.
     */
    static Map<String, Long> pod(Pod pod) {
        Map<String, Long> byInit = new HashMap<>();
        Map<String, Long> byRestartableInit = new HashMap<>();
        for (Container c : PodSpecs.initContainers(pod)) {
            container(c).forEach((type, size) -> {
                byInit.putIfAbsent(type, 0L);
                if (PodSpecs.isRestartableInitContainer(c)) {
                    byRestartableInit.merge(type, size, Long::sum);
                } else {
                    long running = byRestartableInit.getOrDefault(type, 0L) + size;
                    byInit.merge(type, running, Math::max);
                }
            });
        }
        Map<String, Long> byApps = new TreeMap<>();
        for (Container c : PodSpecs.containers(pod)) {
            container(c).forEach((type, size) -> byApps.merge(type, size, Long::sum));
        }
        Map<String, Long> out = new TreeMap<>();
        byApps.forEach((type, size) -> out.put(type,
                Math.max(size + byRestartableInit.getOrDefault(type, 0L), byInit.getOrDefault(type, 0L))));
        return out;
    }
}
