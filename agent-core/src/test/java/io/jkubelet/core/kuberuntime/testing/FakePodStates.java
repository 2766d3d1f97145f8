package io.jkubelet.core.kuberuntime.testing;

import io.jkubelet.core.kuberuntime.PodStateProvider;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Pod states a test sets: no pod may lose anything until the test says so. Thread-safe. */
public final class FakePodStates implements PodStateProvider {
    /** Pods whose content, and so runtime parts, may go. */
    public final Set<String> contentRemovable = ConcurrentHashMap.newKeySet();
    /** Pods that are terminated but still wanted: only their runtime parts may go. */
    public final Set<String> runtimeRemovable = ConcurrentHashMap.newKeySet();

    @Override
    public boolean shouldPodContentBeRemoved(String podUid) {
        return contentRemovable.contains(podUid);
    }

    @Override
    public boolean shouldPodRuntimeBeRemoved(String podUid) {
        return contentRemovable.contains(podUid) || runtimeRemovable.contains(podUid);
    }
}
