package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.container.PodCache;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.kuberuntime.KubeRuntime;
import io.jkubelet.core.podutil.PodSpecs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * The workers' pod statuses from the PLEG's {@link PodCache}: one read of the runtime per change, shared by the
 * worker, housekeeping, GC and the views, instead of each sync reading the pod again. A worker whose reading does
 * not come within {@code patience} (a PLEG stuck on a runtime that does not answer) reads the runtime itself.
 */
final class CachedPodStatuses implements PodStatusSource {
    private static final Logger log = LoggerFactory.getLogger(CachedPodStatuses.class);

    private final PodCache cache;
    private final KubeRuntime runtime;
    private final Duration patience;

    CachedPodStatuses(PodCache cache, KubeRuntime runtime, Duration patience) {
        this.cache = cache;
        this.runtime = runtime;
        this.patience = patience;
    }

    @Override
    public long mark() {
        return cache.mark();
    }

    @Override
    public RuntimePodStatus newerThan(Pod pod, long mark) throws InterruptedException {
        var m = pod.getMetadata();
        var cached = cache.getNewerThan(m.getUid(), m.getName(), m.getNamespace(), mark, patience);
        if (cached.isPresent()) {
            return cached.get();
        }
        log.debug("No fresh status of pod {} from the PLEG within {}: reading the runtime", PodSpecs.format(pod), patience);
        return runtime.getPodStatus(m.getUid(), m.getName(), m.getNamespace());
    }
}
