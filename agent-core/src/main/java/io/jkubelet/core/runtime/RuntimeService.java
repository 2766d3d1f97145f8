package io.jkubelet.core.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Pod sandboxes and containers on a container runtime, shaped after the CRI {@code RuntimeService}.
 *
 * <p>Implementations are thread-safe: pod workers call them concurrently for different pods. Calls
 * block until the runtime has answered. Every failure is a {@link RuntimeException}; a missing object
 * is {@link NotFoundException}. Stop and remove calls are idempotent: stopping a stopped sandbox or
 * container, or removing a removed one, succeeds.
 */
public interface RuntimeService {
    /** {@link #execSync}'s timeout for none: the command may run for as long as it runs. */
    Duration NO_TIMEOUT = Duration.ofMillis(Long.MAX_VALUE);

    /** What {@link #exec}, {@link #attach} and {@link #portForward} throw on a runtime with a streaming server. */
    String SESSIONS_ON_STREAMING_SERVER =
            "this runtime serves exec, attach and port-forward on its streaming server: see streamingRuntime()";

    /** The runtime's name and version, e.g. {@code docker} and {@code 20.10.24}. */
    RuntimeVersion version();

    /**
     * Creates and starts a sandbox: the namespaces (network, IPC, UTS) that the pod's containers join.
     *
     * @param runtimeHandler the runtime configuration to run it with (CRI's {@code runtime_handler}, a RuntimeClass's
     *     {@code handler}); {@code ""} for the runtime's default. A runtime refuses a handler it does not have.
     * @return the sandbox id
     */
    String runPodSandbox(PodSandboxConfig config, String runtimeHandler);

    /** {@link #runPodSandbox(PodSandboxConfig, String)} with the runtime's default handler (no RuntimeClass). */
    default String runPodSandbox(PodSandboxConfig config) {
        return runPodSandbox(config, "");
    }

    /** Stops the sandbox and every container in it; the sandbox's network is released. */
    void stopPodSandbox(String podSandboxId);

    /** Removes the sandbox and every container in it, forcibly. */
    void removePodSandbox(String podSandboxId);

    PodSandboxStatus podSandboxStatus(String podSandboxId);

    List<PodSandbox> listPodSandbox(PodSandboxFilter filter);

    /**
     * Creates a container in the sandbox without starting it.
     *
     * @param sandboxConfig the config the sandbox was created from, for settings containers inherit
     * @return the container id
     */
    String createContainer(String podSandboxId, ContainerConfig config, PodSandboxConfig sandboxConfig);

    void startContainer(String containerId);

    /**
     * Sends the container its stop signal, then kills it once {@code timeout} has passed.
     * Returns when the container has exited.
     */
    void stopContainer(String containerId, Duration timeout);

    void removeContainer(String containerId);

    /**
     * Changes a container's cgroup settings in place (CRI {@code UpdateContainerResources}): the settings that are 0 or
     * empty are left as they are. The CPU manager moves containers between CPUs with it.
     */
    void updateContainerResources(String containerId, LinuxContainerResources resources);

    List<Container> listContainers(ContainerFilter filter);

    ContainerStatus containerStatus(String containerId);

    /**
     * Runs a command in a running container and waits for it, at most {@code timeout}.
     * A command still running at the timeout is reported with {@link ExecResult#timedOut()}.
     * {@link #NO_TIMEOUT} waits for as long as the command runs (a lifecycle hook's exec, upstream's timeout 0).
     */
    ExecResult execSync(String containerId, List<String> command, Duration timeout);

    /**
     * The runtime's streaming server, when it has one (a CRI runtime): exec, attach and port-forward sessions are then
     * proxied to the URLs it gives, and {@link #exec}, {@link #attach} and {@link #portForward} are not offered.
     */
    default Optional<StreamingRuntime> streamingRuntime() {
        return Optional.empty();
    }

    /**
     * Runs {@code command} in a running container with the client's streams attached, the kubelet serving the
     * client's protocol (dockershim's {@code DirectStreamingRuntime}), and blocks until the command has exited and its
     * output has been written. Not offered by a runtime with a {@linkplain #streamingRuntime() streaming server}.
     *
     * <p>Interrupting the calling thread means the client went away: the call stops streaming and
     * returns promptly (throwing {@link InterruptedException}); the command itself may go on running in
     * the container, as with the kubelet.
     *
     * @return the command's exit code
     * @throws NotFoundException when the container does not exist
     */
    default int exec(String containerId, List<String> command, StreamingIo io) throws InterruptedException {
        throw new UnsupportedOperationException(SESSIONS_ON_STREAMING_SERVER);
    }

    /**
     * Attaches the client's streams to the container's main process, as {@link #exec}, and blocks until
     * the process's output ends (it exited) or the calling thread is interrupted (the client went away;
     * the process goes on running).
     *
     * @throws NotFoundException when the container does not exist
     */
    default void attach(String containerId, StreamingIo io) throws InterruptedException {
        throw new UnsupportedOperationException(SESSIONS_ON_STREAMING_SERVER);
    }

    /**
     * Connects {@code in} and {@code out} to TCP {@code port} of the sandbox, as {@link #exec}, and copies bytes both ways until either side closes or the calling thread is
     * interrupted.
     *
     * @throws NotFoundException when the sandbox does not exist
     * @throws java.io.IOException when the port cannot be reached; the message names it
     */
    default void portForward(String podSandboxId, int port, InputStream in, OutputStream out)
            throws IOException, InterruptedException {
        throw new UnsupportedOperationException(SESSIONS_ON_STREAMING_SERVER);
    }

    /**
     * Asks the runtime to reopen the container's log file (CRI {@code ReopenContainerLog}) after the kubelet moved it
     * away to rotate it: the runtime then writes to a new file at the log path.
     *
     * @throws UnsupportedOperationException when the runtime rotates logs itself (Docker's json-file driver)
     */
    default void reopenContainerLog(String containerId) {
        throw new UnsupportedOperationException("this runtime cannot reopen container logs; it rotates them itself");
    }

    /**
     * Subscribes to the runtime's container life-cycle events, so that the PLEG can relist as soon as
     * something happens instead of polling. Delivery is best effort: a listener must still relist
     * periodically. The listener is called on a runtime thread and must not block.
     *
     * @return a handle that ends the subscription
     */
    AutoCloseable watchEvents(Consumer<RuntimeEvent> listener);

    /**
     * The usage of every ready sandbox whose labels include {@code labelSelector}, with its running containers
     * (CRI {@code ListPodSandboxStats}). Called by the stats provider on its own period, never per HTTP request.
     * Containers that stop while they are read are left out, not reported as an error.
     *
     * @throws UnsupportedOperationException when the runtime cannot report usage
     */
    default List<PodSandboxStats> listPodSandboxStats(Map<String, String> labelSelector) {
        throw new UnsupportedOperationException("this runtime does not report pod sandbox stats");
    }

    /**
     * The usage of one running container (CRI {@code ContainerStats}).
     *
     * @throws NotFoundException when no running pod container has this id
     */
    default ContainerStats containerStats(String containerId) {
        return listPodSandboxStats(Map.of()).stream().flatMap(s -> s.containers().stream())
                .filter(c -> c.id().equals(containerId)).findFirst()
                .orElseThrow(() -> new NotFoundException("container " + containerId + " not found"));
    }
}
