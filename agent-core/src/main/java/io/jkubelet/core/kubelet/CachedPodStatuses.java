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
 * The workers' pod statuses through the {@link PodCache}: a pod the PLEG saw change since its last reading is read
 * from the runtime (once, and kept for the next sync, the GC and the views); one that did not change is not read
 * again. A worker that sees no relist within {@code patience} (a PLEG stuck on a runtime that does not answer)
 * reads the runtime itself.
 */
final class CachedPodStatuses implements PodStatusSource {
    private static final Logger log = LoggerFactory.getLogger(CachedPodStatuses.class);

    private final PodCache cache;
    private final Runnable relistRequest;
    private final KubeRuntime runtime;
    private final Duration patience;

    /** @param relistRequest asks the PLEG for a relist soon: a worker waiting for news of its pod needs one */
    CachedPodStatuses(PodCache cache, Runnable relistRequest, KubeRuntime runtime, Duration patience) {
        this.cache = cache;
        this.relistRequest = relistRequest;
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
        switch (cache.getNewerThan(m.getUid(), m.getName(), m.getNamespace(), mark, patience, relistRequest)) {
            case PodCache.Lookup.Current(RuntimePodStatus status) -> {
                return status;
            }
            case PodCache.Lookup.Changed() -> {
                long readAfter = cache.readMark();
                RuntimePodStatus status = runtime.getPodStatus(m.getUid(), m.getName(), m.getNamespace());
                cache.set(status, readAfter);
                return status;
            }
            case PodCache.Lookup.Unknown() -> {
                log.debug("No relist of pod {} within {}: reading the runtime", PodSpecs.format(pod), patience);
                return runtime.getPodStatus(m.getUid(), m.getName(), m.getNamespace());
            }
        }
    }
}
