package io.jkubelet.core.logs;

/**
 * Keeps every container's log within the node's {@link LogRotatePolicy} (upstream {@code logs.ContainerLogManager}).
 * Who rotates depends on the runtime. Docker's json-file driver rotates each log itself as it writes, between two
 * lines, when the container was created with {@code max-size}/{@code max-file}: the kubelet then has nothing to do
 * ({@link #rotatedByRuntime()}). A CRI runtime only reopens a log the kubelet moved away, so its manager renames
 * the live file every {@code containerLogMonitorInterval} on {@code containerLogMaxWorkers} workers, compresses and
 * prunes the older files and asks for {@code ReopenContainerLog}, as upstream's does. Implementations are
 * thread-safe.
 */
public interface ContainerLogManager {

    /** Starts keeping logs within the policy; called once, before pods are synced. */
    void start();

    /** Stops; idempotent. Logs are left as they are. */
    void stop();

    /** The runtime rotates logs as it writes them (Docker's json-file driver): nothing for the kubelet to do. */
    static ContainerLogManager rotatedByRuntime() {
        return new ContainerLogManager() {
            @Override
            public void start() {
            }

            @Override
            public void stop() {
            }
        };
    }
}
