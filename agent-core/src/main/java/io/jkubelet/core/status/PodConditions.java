package io.jkubelet.core.status;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodReadinessGate;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.podutil.PodSpecs;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The pod conditions the kubelet owns (upstream {@code pkg/kubelet/status/generate.go}). */
public final class PodConditions {
    private PodConditions() {}

    public static final String POD_READY_TO_START_CONTAINERS = "PodReadyToStartContainers";
    public static final String INITIALIZED = "Initialized";
    public static final String READY = "Ready";
    public static final String CONTAINERS_READY = "ContainersReady";
    public static final String POD_SCHEDULED = "PodScheduled";
    /** Set by whoever disrupts the pod (the eviction manager), never generated from the containers. */
    public static final String DISRUPTION_TARGET = "DisruptionTarget";

    /** Conditions the kubelet writes; all others on a pod are kept as they are. */
    public static final Set<String> OWNED_BY_KUBELET =
            Set.of(POD_READY_TO_START_CONTAINERS, INITIALIZED, READY, CONTAINERS_READY, POD_SCHEDULED);

    public static final String UNKNOWN_CONTAINER_STATUSES = "UnknownContainerStatuses";
    public static final String POD_COMPLETED = "PodCompleted";
    public static final String POD_FAILED = "PodFailed";
    public static final String CONTAINERS_NOT_READY = "ContainersNotReady";
    public static final String CONTAINERS_NOT_INITIALIZED = "ContainersNotInitialized";
    public static final String READINESS_GATES_NOT_READY = "ReadinessGatesNotReady";

    /**
     * Sets the status's DisruptionTarget condition (upstream {@code UpdatePodCondition} with it), replacing one it had:
     * what the kubelet adds when it fails a pod itself (eviction, node shutdown).
     */
    public static void setDisruptionTarget(PodStatus status, String reason, String message) {
        PodCondition condition = new PodConditionBuilder().withType(DISRUPTION_TARGET)
                .withStatus("True").withReason(reason).withMessage(message).build();
        List<PodCondition> conditions = new ArrayList<>(status.getConditions() == null ? List.of() : status.getConditions());
        conditions.removeIf(c -> DISRUPTION_TARGET.equals(c.getType()));
        conditions.add(condition);
        status.setConditions(conditions);
    }

    public static PodCondition readyToStartContainers(boolean sandboxReady) {
        return condition(POD_READY_TO_START_CONTAINERS, sandboxReady, null, null);
    }

    public static PodCondition containersReady(PodSpec spec, List<ContainerStatus> statuses, String phase) {
        List<String> unknown = new ArrayList<>();
        List<String> unready = new ArrayList<>();
        for (Container c : orEmpty(spec.getInitContainers())) {
            if (!PodSpecs.isRestartableInitContainer(c)) {
                continue;
            }
            find(statuses, c.getName()).ifPresentOrElse(
                    s -> { if (!Boolean.TRUE.equals(s.getReady())) unready.add(c.getName()); },
                    () -> unknown.add(c.getName()));
        }
        for (Container c : orEmpty(spec.getContainers())) {
            find(statuses, c.getName()).ifPresentOrElse(
                    s -> { if (!Boolean.TRUE.equals(s.getReady())) unready.add(c.getName()); },
                    () -> unknown.add(c.getName()));
        }
        if (PodPhases.SUCCEEDED.equals(phase) && unknown.isEmpty()) {
            return condition(CONTAINERS_READY, false, POD_COMPLETED, null);
        }
        if (PodPhases.FAILED.equals(phase)) {
            return condition(CONTAINERS_READY, false, POD_FAILED, null);
        }
        List<String> messages = new ArrayList<>();
        if (!unknown.isEmpty()) {
            messages.add("containers with unknown status: " + goList(unknown));
        }
        if (!unready.isEmpty()) {
            messages.add("containers with unready status: " + goList(unready));
        }
        if (!messages.isEmpty()) {
            return condition(CONTAINERS_READY, false, CONTAINERS_NOT_READY, String.join(", ", messages));
        }
        return condition(CONTAINERS_READY, true, null, null);
    }

    public static PodCondition ready(PodSpec spec, List<PodCondition> conditions, List<ContainerStatus> statuses,
                                     String phase) {
        PodCondition containersReady = containersReady(spec, statuses, phase);
        if (!"True".equals(containersReady.getStatus())) {
            PodCondition c = condition(READY, false, containersReady.getReason(), containersReady.getMessage());
            c.setStatus(containersReady.getStatus());
            return c;
        }
        List<String> messages = new ArrayList<>();
        for (PodReadinessGate gate : orEmpty(spec.getReadinessGates())) {
            Optional<PodCondition> c = conditions.stream()
                    .filter(x -> gate.getConditionType().equals(x.getType())).findFirst();
            if (c.isEmpty()) {
                messages.add("corresponding condition of pod readiness gate \"" + gate.getConditionType()
                        + "\" does not exist.");
            } else if (!"True".equals(c.get().getStatus())) {
                messages.add("the status of pod readiness gate \"" + gate.getConditionType()
                        + "\" is not \"True\", but " + c.get().getStatus());
            }
        }
        if (!messages.isEmpty()) {
            return condition(READY, false, READINESS_GATES_NOT_READY, String.join(", ", messages));
        }
        return condition(READY, true, null, null);
    }

    /** The status's init containers' statuses, then its app containers': the order the conditions read them in. */
    public static List<ContainerStatus> initThenApp(PodStatus status) {
        List<ContainerStatus> statuses = new ArrayList<>(orEmpty(status.getInitContainerStatuses()));
        statuses.addAll(orEmpty(status.getContainerStatuses()));
        return statuses;
    }

    /**
     * Upstream's {@code NeedToReconcilePodReadiness}: whether the pod's Ready condition, as its status has it, is not
     * what its readiness gates and containers now give. Someone other than the kubelet (a load balancer's
     * controller) sets a gate's condition in the apiserver; the kubelet learns it only as a change of status.
     */
    public static boolean needToReconcileReadiness(io.fabric8.kubernetes.api.model.Pod pod) {
        if (pod.getSpec() == null || orEmpty(pod.getSpec().getReadinessGates()).isEmpty() || pod.getStatus() == null) {
            return false;
        }
        PodStatus status = pod.getStatus();
        Optional<PodCondition> current = orEmpty(status.getConditions()).stream()
                .filter(c -> READY.equals(c.getType())).findFirst();
        if (current.isEmpty()) {
            return false;
        }
        // Init containers' statuses too, as the status generator gives them: a sidecar's readiness counts.
        PodCondition expected = ready(pod.getSpec(), orEmpty(status.getConditions()), initThenApp(status), status.getPhase());
        return !java.util.Objects.equals(current.get().getStatus(), expected.getStatus())
                || !java.util.Objects.equals(current.get().getMessage(), expected.getMessage());
    }

    public static PodCondition initialized(PodSpec spec, List<ContainerStatus> statuses, String phase) {
        List<String> unknown = new ArrayList<>();
        List<String> incomplete = new ArrayList<>();
        for (Container c : orEmpty(spec.getInitContainers())) {
            Optional<ContainerStatus> s = find(statuses, c.getName());
            if (s.isEmpty()) {
                unknown.add(c.getName());
                continue;
            }
            if (PodSpecs.isRestartableInitContainer(c)) {
                if (!Boolean.TRUE.equals(s.get().getStarted())) {
                    incomplete.add(c.getName());
                }
                continue;
            }
            if (!Boolean.TRUE.equals(s.get().getReady())) {
                incomplete.add(c.getName());
            }
        }
        if (PodPhases.SUCCEEDED.equals(phase) && unknown.isEmpty()) {
            return condition(INITIALIZED, true, POD_COMPLETED, null);
        }
        if (anyRegularContainerStarted(spec, statuses)) {
            return condition(INITIALIZED, true, null, null);
        }
        List<String> messages = new ArrayList<>();
        if (!unknown.isEmpty()) {
            messages.add("containers with unknown status: " + goList(unknown));
        }
        if (!incomplete.isEmpty()) {
            messages.add("containers with incomplete status: " + goList(incomplete));
        }
        if (!messages.isEmpty()) {
            return condition(INITIALIZED, false, CONTAINERS_NOT_INITIALIZED, String.join(", ", messages));
        }
        return condition(INITIALIZED, true, null, null);
    }

    public static PodCondition scheduled() {
        return condition(POD_SCHEDULED, true, null, null);
    }

    static boolean anyRegularContainerStarted(PodSpec spec, List<ContainerStatus> statuses) {
        for (Container c : orEmpty(spec.getContainers())) {
            Optional<ContainerStatus> s = find(statuses, c.getName());
            if (s.isPresent() && (s.get().getState().getRunning() != null || s.get().getState().getTerminated() != null)) {
                return true;
            }
        }
        return false;
    }

    private static PodCondition condition(String type, boolean status, String reason, String message) {
        PodCondition c = new PodCondition();
        c.setType(type);
        c.setStatus(status ? "True" : "False");
        c.setReason(reason);
        c.setMessage(message);
        return c;
    }

    /** Formats a list the way Go's {@code %s} prints a string slice: {@code [a b]}. */
    static String goList(List<String> l) {
        return "[" + String.join(" ", l) + "]";
    }

    private static Optional<ContainerStatus> find(List<ContainerStatus> statuses, String name) {
        return statuses.stream().filter(s -> name.equals(s.getName())).findFirst();
    }

    private static <T> List<T> orEmpty(List<T> l) {
        return l == null ? List.of() : l;
    }

}
