package io.jkubelet.core.prober;

import io.jkubelet.core.probe.ProbeResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The cached results of one kind of probe, by container id (upstream {@code results.Manager}; the kubelet has
 * one for liveness, one for readiness and one for startup). Setting a result that differs from the cached one
 * (or the first one for a container) tells the listener. Thread-safe.
 */
final class ProbeResults {
    private static final Logger log = LoggerFactory.getLogger(ProbeResults.class);

    private final ProbeType type;
    private final ProbeResultListener listener;
    private final ConcurrentMap<String, ProbeResult> byContainerId = new ConcurrentHashMap<>();

    ProbeResults(ProbeType type, ProbeResultListener listener) {
        this.type = type;
        this.listener = listener;
    }

    Optional<ProbeResult> get(String containerId) {
        return containerId == null ? Optional.empty() : Optional.ofNullable(byContainerId.get(containerId));
    }

    /** Caches the result; tells the listener when it changed. */
    void set(String containerId, ProbeResult result, String podUid, String containerName) {
        ProbeResult previous = byContainerId.put(containerId, result);
        if (previous == result) {
            return;
        }
        try {
            listener.resultChanged(new ProbeUpdate(podUid, containerId, containerName, type, result));
        } catch (RuntimeException e) {
            // A faulty listener must not stop the probing of this container.
            log.warn("Probe result listener failed for {} probe of container {} ({})",
                    type.displayName(), containerName, containerId, e);
        }
    }

    /** Forgets the container's result, without telling the listener (upstream does not either). */
    void remove(String containerId) {
        byContainerId.remove(containerId);
    }

    int size() {
        return byContainerId.size();
    }
}
