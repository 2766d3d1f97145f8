package io.jkubelet.cmd;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.kubelet.Kubelet;
import io.jkubelet.core.pleg.RunningPod;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.ContainerStatus;
import io.jkubelet.core.runtime.ExecResult;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.server.KubeletView;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the debugging handlers need from the pod manager and the runtime: a pod by namespace and name, a
 * container's log path and state, and {@code RunInContainer}. Thread-safe (its sources are). Public so that
 * end-to-end tests can put the debugging handlers over a running agent's pods and the real runtime.
 */
public final class ContainerAccess {

    /**
     * Upstream runs {@code /run} commands with no timeout; a bound as long as the kubelet's HTTP write
     * timeout (4 h) keeps a hung command from holding its thread forever.
     */
    static final Duration RUN_TIMEOUT = Duration.ofHours(4);

    private final Supplier<List<Pod>> pods;
    private final Supplier<List<RunningPod>> runningPods;
    private final RuntimeService runtime;

    /**
     * @param pods the desired pods with their latest status (the kubelet's {@code pods()})
     * @param runningPods the pods as the runtime runs them (the PLEG's view)
     */
    public ContainerAccess(Supplier<List<Pod>> pods, Supplier<List<RunningPod>> runningPods, RuntimeService runtime) {
        this.pods = Objects.requireNonNull(pods, "pods");
        this.runningPods = Objects.requireNonNull(runningPods, "runningPods");
        this.runtime = Objects.requireNonNull(runtime, "runtime");
    }

    /** Over the kubelet's pod manager and PLEG. */
    static ContainerAccess of(Kubelet kubelet, RuntimeService runtime) {
        return new ContainerAccess(kubelet::pods, kubelet::runningPods, runtime);
    }

    /** The desired pods with their latest status. */
    List<Pod> pods() {
        return pods.get();
    }

    /** The pods as the runtime runs them. */
    List<RunningPod> runningPods() {
        return runningPods.get();
    }

    /** The runtime it asks; the streaming endpoints stream through the same one. */
    RuntimeService runtime() {
        return runtime;
    }

    /** The desired pod of that namespace and name, with its latest status (upstream {@code GetPodByName}). */
    public Optional<Pod> podByName(String namespace, String name) {
        return pods.get().stream()
                .filter(p -> p.getMetadata() != null && namespace.equals(p.getMetadata().getNamespace())
                        && name.equals(p.getMetadata().getName()))
                .findFirst();
    }

    /** The id of the running container of that name in the pod the runtime runs under that namespace and name. */
    public Optional<String> findRunningContainer(String namespace, String podName, String containerName) {
        return runningPods.get().stream()
                .filter(p -> namespace.equals(p.namespace()) && podName.equals(p.name()))
                .flatMap(p -> p.members().stream())
                .filter(m -> !m.sandbox() && m.running() && containerName.equals(m.name()))
                .map(RunningPod.Member::id)
                .findFirst();
    }

    /** The pod's sandbox as the runtime runs it, a running one first. */
    public Optional<String> findSandbox(String podUid) {
        return runningPods.get().stream()
                .filter(p -> podUid.equals(p.uid()))
                .flatMap(p -> p.members().stream())
                .filter(RunningPod.Member::sandbox)
                .max(Comparator.comparing(RunningPod.Member::running))
                .map(RunningPod.Member::id);
    }

    /** The runtime's view of a container for its log; throws when the runtime does not know it. */
    public KubeletView.ContainerLog containerLog(String containerId) {
        ContainerStatus status = runtime.containerStatus(containerId);
        return new KubeletView.ContainerLog(status.logPath(), status.state() == ContainerState.CONTAINER_RUNNING);
    }

    /**
     * Upstream {@code RunInContainer}: the container of that name among the pod's running containers (the
     * pod found by its name, as upstream's {@code FindPod} does when it has the full name), then {@code
     * execSync}; stdout followed by stderr. A non-zero exit is an error with the CRI client's text.
     */
    public byte[] runInContainer(String namespace, String podName, String containerName, List<String> command) {
        String id = findRunningContainer(namespace, podName, containerName).orElseThrow(
                () -> new IllegalStateException("container not found (" + quote(containerName) + ")"));
        ExecResult result = runtime.execSync(id, command, RUN_TIMEOUT);
        String cmd = String.join(" ", command);
        if (result.timedOut()) {
            throw new IllegalStateException("command '" + cmd + "' timed out after " + RUN_TIMEOUT.toHours() + "h0m0s");
        }
        if (result.exitCode() != 0) {
            throw new IllegalStateException("command '" + cmd + "' exited with " + result.exitCode() + ": "
                    + new String(result.stderr(), StandardCharsets.UTF_8));
        }
        byte[] out = new byte[result.stdout().length + result.stderr().length];
        System.arraycopy(result.stdout(), 0, out, 0, result.stdout().length);
        System.arraycopy(result.stderr(), 0, out, result.stdout().length, result.stderr().length);
        return out;
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
