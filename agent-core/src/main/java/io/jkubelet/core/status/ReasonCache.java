package io.jkubelet.core.status;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The last reason a container failed to start, per pod and container (upstream {@code ReasonCache}):
 * what its status shows as the waiting reason ({@code CrashLoopBackOff}, {@code ErrImagePull}, ...) until
 * it starts. Thread-safe.
 */
public final class ReasonCache {
    /** A waiting reason ({@code CrashLoopBackOff}) and its message. */
    public record Reason(String reason, String message) {}

    private final ConcurrentMap<String, Reason> reasons = new ConcurrentHashMap<>();

    private static String key(String podUid, String containerName) {
        return podUid + "/" + containerName;
    }

    public void add(String podUid, String containerName, String reason, String message) {
        reasons.put(key(podUid, containerName), new Reason(reason, message == null ? "" : message));
    }

    public void remove(String podUid, String containerName) {
        reasons.remove(key(podUid, containerName));
    }

    public Optional<Reason> get(String podUid, String containerName) {
        return Optional.ofNullable(reasons.get(key(podUid, containerName)));
    }

    public void removePod(String podUid) {
        reasons.keySet().removeIf(k -> k.startsWith(podUid + "/"));
    }
}
