package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.container.ContainerStatus;
import io.jkubelet.core.container.PodStatus;
import io.jkubelet.core.container.SandboxStatus;
import io.jkubelet.core.container.State;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides what a pod needs, from its spec and what the runtime runs (upstream {@code computePodActions}).
 * A pure function: the runtime manager acts on its result.
 */
public final class ComputePodActions {
    private ComputePodActions() {}

    /** Liveness failure, as a kill reason (upstream {@code reasonLivenessProbe}). */
    public static final String REASON_LIVENESS_PROBE = "Liveness";
    public static final String REASON_STARTUP_PROBE = "Startup";

    public static PodActions compute(Pod pod, PodStatus podStatus, ProbeVerdicts probes) {
        SandboxChange sandbox = podSandboxChanged(pod, podStatus);
        List<Container> containers = PodSpecs.containers(pod);
        List<Container> initContainers = PodSpecs.initContainers(pod);

        if (sandbox.create) {
            // A pod that ran with restartPolicy Never and whose sandbox died is not brought back.
            if (!PodSpecs.shouldRestartOnFailure(pod) && sandbox.attempt != 0 && !podStatus.containers().isEmpty()) {
                return new PodActions(true, false, sandbox.id, sandbox.attempt, null, List.of(), Map.of());
            }
            List<Integer> toStart = new ArrayList<>();
            for (int i = 0; i < containers.size(); i++) {
                if (PodSpecs.RESTART_ON_FAILURE.equals(PodSpecs.restartPolicy(pod))
                        && containerSucceeded(containers.get(i), podStatus)) {
                    continue;
                }
                toStart.add(i);
            }
            if (toStart.isEmpty()) {
                // Every container succeeded: nothing left to run, so no new sandbox either.
                return new PodActions(true, false, sandbox.id, sandbox.attempt, null, List.of(), Map.of());
            }
            if (!initContainers.isEmpty()) {
                return new PodActions(true, true, sandbox.id, sandbox.attempt, initContainers.get(0), List.of(), Map.of());
            }
            return new PodActions(true, true, sandbox.id, sandbox.attempt, null, toStart, Map.of());
        }

        Map<String, PodActions.ContainerToKill> toKill = new LinkedHashMap<>();
        InitProgress init = findNextInitContainerToRun(pod, podStatus);
        if (!init.done) {
            boolean killPod = false;
            Container next = null;
            if (init.next != null) {
                boolean initFailed = init.lastStatus != null && isInitContainerFailed(init.lastStatus);
                if (initFailed && !PodSpecs.shouldRestartOnFailure(pod)) {
                    killPod = true;
                } else {
                    if (init.lastStatus != null && init.lastStatus.state() == State.UNKNOWN) {
                        toKill.put(init.lastStatus.id(), new PodActions.ContainerToKill(init.lastStatus.name(), init.next,
                                "Init container is in \"Unknown\" state, try killing it before restart", ""));
                    }
                    next = init.next;
                }
            }
            return new PodActions(killPod, false, sandbox.id, sandbox.attempt, next, List.of(), toKill);
        }

        List<Integer> toStart = new ArrayList<>();
        int keepCount = 0;
        for (int i = 0; i < containers.size(); i++) {
            Container container = containers.get(i);
            Optional<ContainerStatus> status = podStatus.findContainerStatusByName(container.getName());
            if (status.isEmpty() || status.get().state() != State.RUNNING) {
                if (PodSpecs.shouldContainerBeRestarted(container, pod, podStatus)) {
                    toStart.add(i);
                    if (status.isPresent() && status.get().state() == State.UNKNOWN) {
                        toKill.put(status.get().id(), new PodActions.ContainerToKill(container.getName(), container,
                                "Container is in \"Unknown\" state, try killing it before restart", ""));
                    }
                }
                continue;
            }
            ContainerStatus running = status.get();
            boolean restart = PodSpecs.shouldRestartOnFailure(pod);
            String message;
            String reason = "";
            if (!ContainerHash.of(container).equals(running.hash())) {
                message = "Container " + container.getName() + " definition changed";
                // A changed spec is always applied, whatever the restart policy.
                restart = true;
            } else if (probes.livenessFailed(running.id())) {
                message = "Container " + container.getName() + " failed liveness probe";
                reason = REASON_LIVENESS_PROBE;
            } else if (probes.startupFailed(running.id())) {
                message = "Container " + container.getName() + " failed startup probe";
                reason = REASON_STARTUP_PROBE;
            } else {
                keepCount++;
                continue;
            }
            if (restart) {
                message = message + ", will be restarted";
                toStart.add(i);
            }
            toKill.put(running.id(), new PodActions.ContainerToKill(container.getName(), container, message, reason));
        }
        boolean killPod = keepCount == 0 && toStart.isEmpty();
        return new PodActions(killPod, false, sandbox.id, sandbox.attempt, null, toStart, toKill);
    }

    private record SandboxChange(boolean create, int attempt, String id) {}

    /** Whether the pod needs a new sandbox: none yet, not ready, more than one ready, or a wrong network. */
    static SandboxChange podSandboxChanged(Pod pod, PodStatus podStatus) {
        List<SandboxStatus> sandboxes = podStatus.sandboxes();
        if (sandboxes.isEmpty()) {
            return new SandboxChange(true, 0, null);
        }
        SandboxStatus latest = sandboxes.get(0);
        long ready = sandboxes.stream().filter(SandboxStatus::ready).count();
        if (ready > 1 || !latest.ready()) {
            return new SandboxChange(true, latest.attempt() + 1, latest.id());
        }
        boolean hostNetwork = PodSpecs.hostNetwork(pod);
        if (latest.hostNetwork() != hostNetwork) {
            return new SandboxChange(true, latest.attempt() + 1, latest.id());
        }
        if (!hostNetwork && latest.ips().isEmpty()) {
            return new SandboxChange(true, latest.attempt() + 1, latest.id());
        }
        return new SandboxChange(false, latest.attempt(), latest.id());
    }

    private static boolean containerSucceeded(Container c, PodStatus podStatus) {
        return podStatus.findContainerStatusByName(c.getName())
                .map(s -> s.state() == State.EXITED && s.exitCode() == 0)
                .orElse(false);
    }

    static boolean isInitContainerFailed(ContainerStatus status) {
        return (status.state() == State.EXITED && status.exitCode() != 0) || status.state() == State.UNKNOWN;
    }

    private record InitProgress(ContainerStatus lastStatus, Container next, boolean done) {}

    /** Which init container runs next (upstream {@code findNextInitContainerToRun}). */
    static InitProgress findNextInitContainerToRun(Pod pod, PodStatus podStatus) {
        List<Container> init = PodSpecs.initContainers(pod);
        if (init.isEmpty()) {
            return new InitProgress(null, null, true);
        }
        // A running app container means initialisation finished earlier.
        for (Container c : PodSpecs.containers(pod)) {
            Optional<ContainerStatus> s = podStatus.findContainerStatusByName(c.getName());
            if (s.isPresent() && s.get().state() == State.RUNNING) {
                return new InitProgress(null, null, true);
            }
        }
        for (int i = init.size() - 1; i >= 0; i--) {
            Optional<ContainerStatus> s = podStatus.findContainerStatusByName(init.get(i).getName());
            if (s.isPresent() && isInitContainerFailed(s.get())) {
                return new InitProgress(s.get(), init.get(i), false);
            }
        }
        for (int i = init.size() - 1; i >= 0; i--) {
            Optional<ContainerStatus> s = podStatus.findContainerStatusByName(init.get(i).getName());
            if (s.isEmpty()) {
                continue;
            }
            if (s.get().state() == State.RUNNING) {
                return new InitProgress(null, null, false);
            }
            if (s.get().state() == State.EXITED) {
                if (i == init.size() - 1) {
                    return new InitProgress(null, null, true);
                }
                return new InitProgress(null, init.get(i + 1), false);
            }
        }
        return new InitProgress(null, init.get(0), false);
    }
}
