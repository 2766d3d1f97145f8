package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.prober.ProbeVerdicts;
import io.jkubelet.core.container.ContainerRestarts;
import io.jkubelet.core.podutil.PodSpecs;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.container.ContainerStatus;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.container.SandboxStatus;
import io.jkubelet.core.container.State;

import java.util.ArrayList;
import java.util.Collections;
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

    public static PodActions compute(Pod pod, RuntimePodStatus podStatus, ProbeVerdicts probes) {
        SandboxChange sandbox = podSandboxChanged(pod, podStatus);
        List<Container> containers = PodSpecs.containers(pod);
        List<Container> initContainers = PodSpecs.initContainers(pod);
        // Pods with sidecars take upstream's SidecarContainers path (computeInitContainerActions); the
        // others keep the findNextInitContainerToRun path, which gives them the same decisions.
        boolean sidecars = PodSpecs.hasRestartableInitContainer(pod);

        if (sandbox.create) {
            // A pod that ran with restartPolicy Never and whose sandbox died is not brought back.
            if (!PodSpecs.shouldRestartOnFailure(pod) && sandbox.attempt != 0 && !podStatus.containers().isEmpty()) {
                return new PodActions(true, false, sandbox.id, sandbox.attempt, null, List.of(), List.of(), Map.of());
            }
            List<Integer> toStart = new ArrayList<>();
            for (int i = 0; i < containers.size(); i++) {
                if (PodSpecs.RESTART_ON_FAILURE.equals(PodSpecs.restartPolicy(pod))
                        && containerSucceeded(containers.get(i), podStatus)) {
                    continue;
                }
                toStart.add(i);
            }
            if (toStart.isEmpty() && (!sidecars || hasAnyRegularContainerCreated(pod, podStatus))) {
                // Every container succeeded: nothing left to run, so no new sandbox either.
                return new PodActions(true, false, sandbox.id, sandbox.attempt, null, List.of(), List.of(), Map.of());
            }
            if (sidecars) {
                // With sidecars, initialisation restarts from the first init container (upstream's
                // InitContainersToStart = [0]).
                return new PodActions(true, true, sandbox.id, sandbox.attempt, null, List.of(0), List.of(), Map.of());
            }
            if (!initContainers.isEmpty()) {
                return new PodActions(true, true, sandbox.id, sandbox.attempt, initContainers.get(0), List.of(), List.of(), Map.of());
            }
            return new PodActions(true, true, sandbox.id, sandbox.attempt, null, List.of(), toStart, Map.of());
        }

        Map<String, PodActions.ContainerToKill> toKill = new LinkedHashMap<>();
        List<Integer> initToStart = List.of();
        if (sidecars) {
            InitActions ia = computeInitContainerActions(pod, podStatus, probes, toKill);
            if (ia.killPod() || !ia.initialized()) {
                // Initialisation failed for good or is still in progress: the app containers wait.
                return new PodActions(ia.killPod(), false, sandbox.id, sandbox.attempt, null, ia.toStart(), List.of(), toKill);
            }
            initToStart = ia.toStart();
        }
        InitProgress init = sidecars ? new InitProgress(null, null, true) : findNextInitContainerToRun(pod, podStatus);
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
                                "Init container is in \"unknown\" state, try killing it before restart", ""));
                    }
                    next = init.next;
                }
            }
            return new PodActions(killPod, false, sandbox.id, sandbox.attempt, next, List.of(), List.of(), toKill);
        }

        List<Integer> toStart = new ArrayList<>();
        int keepCount = 0;
        for (int i = 0; i < containers.size(); i++) {
            Container container = containers.get(i);
            Optional<ContainerStatus> status = podStatus.findContainerStatusByName(container.getName());
            if (status.isEmpty() || status.get().state() != State.RUNNING) {
                if (ContainerRestarts.shouldContainerBeRestarted(container, pod, podStatus)) {
                    toStart.add(i);
                    if (status.isPresent() && status.get().state() == State.UNKNOWN) {
                        toKill.put(status.get().id(), new PodActions.ContainerToKill(container.getName(), container,
                                "Container is in \"unknown\" state, try killing it before restart", ""));
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
        // Nothing regular left to run: the pod is done, and its sidecars must not keep it alive.
        boolean killPod = keepCount == 0 && toStart.isEmpty();
        return new PodActions(killPod, false, sandbox.id, sandbox.attempt, null, killPod ? List.of() : initToStart, toStart, toKill);
    }

    private record SandboxChange(boolean create, int attempt, String id) {}

    /** Whether the pod needs a new sandbox: none yet, not ready, more than one ready, or a wrong network. */
    static SandboxChange podSandboxChanged(Pod pod, RuntimePodStatus podStatus) {
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

    private static boolean containerSucceeded(Container c, RuntimePodStatus podStatus) {
        return podStatus.findContainerStatusByName(c.getName())
                .map(s -> s.state() == State.EXITED && s.exitCode() == 0)
                .orElse(false);
    }

    static boolean isInitContainerFailed(ContainerStatus status) {
        return (status.state() == State.EXITED && status.exitCode() != 0) || status.state() == State.UNKNOWN;
    }

    private record InitProgress(ContainerStatus lastStatus, Container next, boolean done) {}

    /** Whether a regular container was ever created here, so initialisation happened (upstream {@code hasAnyRegularContainerCreated}). */
    static boolean hasAnyRegularContainerCreated(Pod pod, RuntimePodStatus podStatus) {
        for (Container c : PodSpecs.containers(pod)) {
            Optional<ContainerStatus> s = podStatus.findContainerStatusByName(c.getName());
            if (s.isPresent() && s.get().state() != State.UNKNOWN) {
                return true;
            }
        }
        return false;
    }

    /**
     * The init container decisions for a pod with sidecars.
     *
     * @param initialized every init container has done its part: the regular containers may run
     * @param killPod a regular init container failed and the pod does not restart
     * @param toStart indexes into {@code spec.initContainers}, in spec order
     */
    record InitActions(boolean initialized, boolean killPod, List<Integer> toStart) {}

    /**
     * Upstream 1.30 {@code computeInitContainerActions} (pkg/kubelet/kuberuntime/kuberuntime_manager.go,
     * SidecarContainers on): start the first init container not yet started; start the next one once a
     * sidecar runs (and, with a startup probe, has started); restart sidecars that exited or are unknown,
     * whatever the pod's restart policy; kill and restart a sidecar whose startup or liveness probe failed.
     * Walks the init containers backwards, as the runtime may have removed completed ones.
     */
    static InitActions computeInitContainerActions(Pod pod, RuntimePodStatus podStatus, ProbeVerdicts probes,
                                                   Map<String, PodActions.ContainerToKill> toKill) {
        List<Container> init = PodSpecs.initContainers(pod);
        if (init.isEmpty()) {
            return new InitActions(true, false, List.of());
        }
        // A created or running regular container means initialisation happened before; an exited one does
        // not (after a reboot every container has exited and the new sandbox starts over).
        boolean podHasInitialized = false;
        for (Container c : PodSpecs.containers(pod)) {
            Optional<ContainerStatus> s = podStatus.findContainerStatusByName(c.getName());
            if (s.isPresent() && (s.get().state() == State.CREATED || s.get().state() == State.RUNNING)) {
                podHasInitialized = true;
                break;
            }
        }
        boolean previouslyInitialized = podHasInitialized;
        boolean restartOnFailure = PodSpecs.shouldRestartOnFailure(pod);
        List<Integer> toStart = new ArrayList<>();
        for (int i = init.size() - 1; i >= 0; i--) {
            Container c = init.get(i);
            boolean restartable = PodSpecs.isRestartableInitContainer(c);
            Optional<ContainerStatus> found = podStatus.findContainerStatusByName(c.getName());
            if (found.isEmpty()) {
                // Initialised before but gone from the runtime: a sidecar must run again.
                if (previouslyInitialized && restartable) {
                    toStart.add(i);
                }
                continue;
            }
            ContainerStatus status = found.get();
            if (previouslyInitialized && !restartable) {
                // After initialisation only sidecars are kept running.
                continue;
            }
            switch (status.state()) {
                case CREATED -> toStart.add(i); // created but never started: start it
                case RUNNING -> {
                    if (!restartable) {
                        break; // a regular init container: wait for it to finish
                    }
                    if (c.getStartupProbe() != null) {
                        if (probes.startupFailed(status.id())) {
                            toKill.put(status.id(), new PodActions.ContainerToKill(c.getName(), c,
                                    "Init container " + c.getName() + " failed startup probe", REASON_STARTUP_PROBE));
                            toStart.add(i);
                            break;
                        }
                        if (!probes.startupSucceeded(status.id())) {
                            break; // not started yet: the next init container waits
                        }
                    }
                    if (i == init.size() - 1) {
                        podHasInitialized = true;
                    } else if (!previouslyInitialized) {
                        toStart.add(i + 1); // started for the first time: on to the next one
                    }
                    // A sidecar's liveness does not hold up the next init container, but a failure restarts it.
                    if (c.getLivenessProbe() != null && probes.livenessFailed(status.id())) {
                        toKill.put(status.id(), new PodActions.ContainerToKill(c.getName(), c,
                                "Init container " + c.getName() + " failed liveness probe", REASON_LIVENESS_PROBE));
                        toStart.add(i);
                    }
                }
                case EXITED -> {
                    if (restartable) {
                        toStart.add(i); // a sidecar is restarted whatever the pod's restart policy
                    } else if (isInitContainerFailed(status)) {
                        if (!restartOnFailure) {
                            return new InitActions(false, true, List.of());
                        }
                        toStart.add(i);
                    } else if (i == init.size() - 1) {
                        podHasInitialized = true;
                    } else {
                        toStart.add(i + 1);
                    }
                }
                default -> {
                    // Unknown: kill what may be left of it, then start it again.
                    if (!restartable && !restartOnFailure) {
                        return new InitActions(false, true, List.of());
                    }
                    toKill.put(status.id(), new PodActions.ContainerToKill(c.getName(), c,
                            "Init container is in \"unknown\" state, try killing it before restart", ""));
                    toStart.add(i);
                }
            }
            previouslyInitialized = true;
        }
        if (!previouslyInitialized) {
            toStart.add(0); // nothing started yet
        }
        Collections.reverse(toStart);
        return new InitActions(podHasInitialized, false, toStart);
    }

    /** Which init container runs next (upstream {@code findNextInitContainerToRun}). */
    static InitProgress findNextInitContainerToRun(Pod pod, RuntimePodStatus podStatus) {
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
