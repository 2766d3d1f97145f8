package io.jkubelet.core.config;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Whether every pod source has delivered its pods to the kubelet at least once (upstream
 * {@code config.SourcesReady}). The sync loop adds a source once one of its updates has been handled; until
 * all are in, housekeeping kills nothing, since a pod a slow source has yet to deliver looks unwanted.
 * Thread-safe.
 */
public final class SourcesReady {
    private final Set<String> handled = ConcurrentHashMap.newKeySet();
    private final Predicate<Set<String>> seenAll;

    /** @param seenAll whether the pod config has seen every registered source, given those the loop handled */
    public SourcesReady(Predicate<Set<String>> seenAll) {
        this.seenAll = seenAll;
    }

    /** Over a pod config: its registered sources, each of which has sent one SET and been handled. */
    public static SourcesReady of(PodConfig podConfig) {
        return new SourcesReady(podConfig::seenAllSources);
    }

    /** The sync loop has handled an update of {@code source}. */
    public void addSource(String source) {
        handled.add(source);
    }

    public boolean allReady() {
        return seenAll.test(Set.copyOf(handled));
    }
}
