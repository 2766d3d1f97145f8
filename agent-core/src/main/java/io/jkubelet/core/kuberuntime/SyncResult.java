package io.jkubelet.core.kuberuntime;

import java.util.ArrayList;
import java.util.List;

/**
 * What one {@code syncPod} did (upstream {@code PodSyncResult}): per container the start outcome, so that
 * the kubelet keeps each failure's reason for the container's waiting state, and any pod-level error.
 */
public final class SyncResult {
    /** One container's start: {@code reason} is empty on success. */
    public record StartResult(String containerName, String reason, String message) {
        public boolean ok() {
            return reason.isEmpty();
        }
    }

    private final List<StartResult> starts = new ArrayList<>();
    private String error;

    public void add(StartResult r) {
        starts.add(r);
    }

    public void fail(String message) {
        this.error = message;
    }

    public List<StartResult> starts() {
        return List.copyOf(starts);
    }

    /** The pod-level error, or null. */
    public String error() {
        return error;
    }

    /** Whether anything failed; a backing-off container counts, so the pod is retried after a delay. */
    public boolean failed() {
        return error != null || starts.stream().anyMatch(s -> !s.ok());
    }
}
