package io.jkubelet.core.status;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.jkubelet.core.container.ContainerRestarts;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateRunning;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.HostIP;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.container.State;
import io.jkubelet.core.podutil.PodSpecs;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Builds the API status of a pod from what the runtime reports (upstream {@code generateAPIPodStatus} and
 * {@code convertToAPIContainerStatuses}). Pure: everything it needs comes in as arguments.
 */
public final class PodStatusGenerator {

    public static final String CONTAINER_CREATING = "ContainerCreating";
    public static final String POD_INITIALIZING = "PodInitializing";
    public static final String CONTAINER_STATUS_UNKNOWN = "ContainerStatusUnknown";
    /** Termination message bytes one pod may report in all (upstream {@code MaxPodTerminationMessageLogLength}). */
    static final int MAX_POD_TERMINATION_MESSAGE_LOG_LENGTH = 12 * 1024;

    private final ReasonCache reasonCache;
    private final ContainerProbeView probes;
    private final Function<Pod, String> qosClass;

    public PodStatusGenerator(ReasonCache reasonCache, ContainerProbeView probes, Function<Pod, String> qosClass) {
        this.reasonCache = reasonCache;
        this.probes = probes;
        this.qosClass = qosClass;
    }

    /**
     * @param oldStatus the last status the kubelet generated for this pod, or the pod's own status
     * @param podIsTerminal the pod's containers will not run again
     * @param hostIps the node's IPs
     * @param staticPod whether the pod came from a file or URL (never made terminal, as upstream)
     */
    public PodStatus generate(Pod pod, RuntimePodStatus podStatus, PodStatus oldStatus,
                              boolean podIsTerminal, List<String> hostIps, boolean staticPod) {
        PodStatus s = new PodStatus();
        List<String> podIps = PodSpecs.hostNetwork(pod) ? hostIps : podStatus.ips();
        if (!podIps.isEmpty()) {
            s.setPodIP(podIps.get(0));
            s.setPodIPs(podIps.stream().map(PodIP::new).toList());
        }
        if (!hostIps.isEmpty()) {
            s.setHostIP(hostIps.get(0));
            s.setHostIPs(hostIps.stream().map(HostIP::new).toList());
        }
        s.setQosClass(qosClass.apply(pod));
        boolean hasInit = !PodSpecs.initContainers(pod).isEmpty();
        s.setContainerStatuses(convert(pod, podStatus, orEmpty(oldStatus.getContainerStatuses()),
                PodSpecs.containers(pod), hasInit, false));
        s.setInitContainerStatuses(convert(pod, podStatus, orEmpty(oldStatus.getInitContainerStatuses()),
                PodSpecs.initContainers(pod), hasInit, true));
        setReadiness(pod, s);
        limitTerminationMessages(pod, s);

        List<ContainerStatus> all = new ArrayList<>(s.getContainerStatuses());
        all.addAll(s.getInitContainerStatuses());
        String phase = PodPhases.getPhase(pod, all, podIsTerminal, staticPod);
        String oldPhase = oldStatus.getPhase();
        String apiPhase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        // A terminal phase, once reached, is never left.
        if (!PodPhases.isTerminal(phase)) {
            if (PodPhases.isTerminal(oldPhase)) {
                phase = oldPhase;
            } else if (PodPhases.isTerminal(apiPhase)) {
                phase = apiPhase;
            }
        }
        s.setPhase(phase);
        if (phase.equals(oldPhase)) {
            s.setReason(oldStatus.getReason());
            s.setMessage(oldStatus.getMessage());
        }

        List<PodCondition> conditions = new ArrayList<>();
        if (pod.getStatus() != null) {
            for (PodCondition c : orEmpty(pod.getStatus().getConditions())) {
                if (!PodConditions.OWNED_BY_KUBELET.contains(c.getType())) {
                    conditions.add(c);
                }
            }
        }
        // A disruption (an eviction) is a one-time event the kubelet wrote itself: kept from its last status, as
        // upstream does, even before the apiserver's copy shows it.
        orEmpty(oldStatus.getConditions()).stream().filter(c -> PodConditions.DISRUPTION_TARGET.equals(c.getType()))
                .findFirst().ifPresent(disruption -> {
                    conditions.removeIf(c -> PodConditions.DISRUPTION_TARGET.equals(c.getType()));
                    conditions.add(disruption);
                });
        List<ContainerStatus> initThenApp = PodConditions.initThenApp(s);
        boolean sandboxReady = !podStatus.sandboxes().isEmpty() && podStatus.sandboxes().get(0).ready();
        conditions.add(PodConditions.readyToStartContainers(sandboxReady));
        conditions.add(PodConditions.initialized(pod.getSpec(), initThenApp, phase));
        conditions.add(PodConditions.ready(pod.getSpec(), conditions, initThenApp, phase));
        conditions.add(PodConditions.containersReady(pod.getSpec(), initThenApp, phase));
        conditions.add(PodConditions.scheduled());
        s.setConditions(conditions);
        s.setStartTime(oldStatus.getStartTime());
        return s;
    }

    /**
     * Shares the pod's termination message budget evenly between its containers and cuts longer messages
     * to their share, keeping their beginning (upstream status manager {@code normalizeStatus}).
     */
    static void limitTerminationMessages(Pod pod, PodStatus s) {
        int containers = PodSpecs.containers(pod).size() + PodSpecs.initContainers(pod).size();
        int bytesPerStatus = containers > 0 ? MAX_POD_TERMINATION_MESSAGE_LOG_LENGTH / containers
                : MAX_POD_TERMINATION_MESSAGE_LOG_LENGTH;
        for (List<ContainerStatus> l : List.of(orEmpty(s.getContainerStatuses()), orEmpty(s.getInitContainerStatuses()))) {
            for (ContainerStatus cs : l) {
                limit(cs.getState(), bytesPerStatus);
                limit(cs.getLastState(), bytesPerStatus);
            }
        }
    }

    private static void limit(ContainerState state, int maxBytes) {
        if (state == null || state.getTerminated() == null || state.getTerminated().getMessage() == null) {
            return;
        }
        String m = state.getTerminated().getMessage();
        byte[] b = m.getBytes(StandardCharsets.UTF_8);
        if (b.length <= maxBytes) {
            return;
        }
        // Cut on a character boundary: a UTF-8 continuation byte (10xxxxxx) never starts a character.
        int end = maxBytes;
        while (end > 0 && (b[end] & 0xC0) == 0x80) {
            end--;
        }
        state.getTerminated().setMessage(new String(b, 0, end, StandardCharsets.UTF_8));
    }

    /** Sets {@code ready} and {@code started} as the probe manager's {@code UpdatePodStatus} does. */
    private void setReadiness(Pod pod, PodStatus s) {
        String uid = pod.getMetadata().getUid();
        for (ContainerStatus cs : s.getContainerStatuses()) {
            Container spec = PodSpecs.findContainer(pod, cs.getName()).orElseThrow();
            boolean running = cs.getState().getRunning() != null;
            boolean started = running && probes.started(uid, spec, containerId(cs));
            cs.setStarted(running ? started : false);
            cs.setReady(started && probes.ready(uid, spec, containerId(cs)));
        }
        for (ContainerStatus cs : s.getInitContainerStatuses()) {
            Container spec = PodSpecs.findContainer(pod, cs.getName()).orElseThrow();
            boolean running = cs.getState().getRunning() != null;
            if (PodSpecs.isRestartableInitContainer(spec)) {
                boolean started = running && probes.started(uid, spec, containerId(cs));
                cs.setStarted(started);
                cs.setReady(started && probes.ready(uid, spec, containerId(cs)));
            } else {
                cs.setStarted(running);
                ContainerStateTerminated t = cs.getState().getTerminated();
                cs.setReady(t != null && t.getExitCode() == 0);
            }
        }
    }

    private static String containerId(ContainerStatus cs) {
        return io.jkubelet.core.container.ContainerStatus.runtimeId(cs.getContainerID());
    }

    private List<ContainerStatus> convert(Pod pod, RuntimePodStatus podStatus,
                                          List<ContainerStatus> previous, List<Container> containers,
                                          boolean hasInitContainers, boolean isInit) {
        Map<String, ContainerStatus> old = new HashMap<>();
        for (ContainerStatus c : previous) {
            old.put(c.getName(), c);
        }
        String defaultReason = hasInitContainers ? POD_INITIALIZING : CONTAINER_CREATING;
        Map<String, ContainerStatus> statuses = new LinkedHashMap<>();
        for (Container c : containers) {
            ContainerStatus st = new ContainerStatus();
            st.setName(c.getName());
            st.setImage(c.getImage());
            st.setImageID("");
            st.setRestartCount(0);
            st.setReady(false);
            st.setState(waiting(defaultReason, null));
            st.setLastState(new ContainerState());
            ContainerStatus o = old.get(c.getName());
            if (o != null) {
                if (o.getState() != null && o.getState().getTerminated() != null) {
                    st = copy(o);
                } else {
                    st.setRestartCount(o.getRestartCount());
                    st.setLastState(o.getLastState() == null ? new ContainerState() : o.getLastState());
                }
            }
            statuses.put(c.getName(), st);
        }

        // A container that ran before but vanished from the runtime terminated, though we cannot say how.
        for (Container c : containers) {
            if (!podStatus.containersByName(c.getName()).isEmpty()) {
                continue;
            }
            ContainerStatus o = old.get(c.getName());
            if (o == null || o.getState() == null || o.getState().getTerminated() != null || o.getState().getRunning() == null) {
                continue;
            }
            ContainerStatus st = statuses.get(c.getName());
            boolean isDefault = st.getState().getWaiting() != null && defaultReason.equals(st.getState().getWaiting().getReason());
            if (!isDefault || (st.getLastState() != null && st.getLastState().getTerminated() != null)) {
                continue;
            }
            ContainerStateTerminated t = new ContainerStateTerminated();
            t.setReason(CONTAINER_STATUS_UNKNOWN);
            t.setMessage("The container could not be located when the pod was deleted.  The container used to be Running");
            t.setExitCode(137);
            ContainerState last = new ContainerState();
            last.setTerminated(t);
            st.setLastState(last);
            if (!PodSpecs.isBeingDeleted(pod)) {
                st.setRestartCount(st.getRestartCount() + 1);
            }
        }

        Map<String, Integer> seen = new HashMap<>();
        for (io.jkubelet.core.container.ContainerStatus cs : podStatus.containers()) { // newest first
            if (!statuses.containsKey(cs.name())) {
                continue;
            }
            int n = seen.getOrDefault(cs.name(), 0);
            if (n >= 2) {
                continue;
            }
            ContainerStatus converted = convertOne(cs, old.get(cs.name()));
            if (n == 0) {
                statuses.put(cs.name(), converted);
            } else {
                statuses.get(cs.name()).setLastState(converted.getState());
            }
            seen.put(cs.name(), n + 1);
        }

        // Containers that will be (re)started show why they are not running yet.
        for (Container c : containers) {
            if (isInit) {
                var latest = podStatus.findContainerStatusByName(c.getName());
                if (latest.isPresent() && latest.get().state() == State.EXITED && latest.get().exitCode() == 0) {
                    continue;
                }
            }
            if (!ContainerRestarts.shouldContainerBeRestarted(c, pod, podStatus)) {
                continue;
            }
            var reason = reasonCache.get(pod.getMetadata().getUid(), c.getName());
            if (reason.isEmpty()) {
                continue;
            }
            ContainerStatus st = statuses.get(c.getName());
            if (st.getState().getTerminated() != null) {
                st.setLastState(st.getState());
            }
            st.setState(waiting(reason.get().reason(), reason.get().message()));
        }

        List<ContainerStatus> out = new ArrayList<>(statuses.values());
        if (!isInit) {
            out.sort(Comparator.comparing(ContainerStatus::getName));
        }
        return out;
    }

    private static ContainerStatus convertOne(io.jkubelet.core.container.ContainerStatus cs, ContainerStatus old) {
        ContainerStatus st = new ContainerStatus();
        st.setName(cs.name());
        st.setRestartCount(cs.restartCount());
        st.setImage(cs.image());
        st.setImageID(cs.imageId());
        st.setContainerID(cs.containerId());
        st.setReady(false);
        st.setLastState(new ContainerState());
        ContainerState state = new ContainerState();
        switch (cs.state()) {
            case RUNNING -> state.setRunning(new ContainerStateRunning(time(cs.startedAt())));
            case CREATED -> state.setWaiting(new ContainerStateWaiting());
            case EXITED -> {
                ContainerStateTerminated t = new ContainerStateTerminated();
                t.setExitCode(cs.exitCode());
                t.setReason(emptyToNull(cs.reason()));
                t.setMessage(emptyToNull(cs.message()));
                t.setStartedAt(time(cs.startedAt()));
                t.setFinishedAt(time(cs.finishedAt()));
                t.setContainerID(cs.containerId());
                state.setTerminated(t);
            }
            case UNKNOWN -> {
                if (old != null && old.getState() != null && old.getState().getRunning() != null) {
                    ContainerStateTerminated t = new ContainerStateTerminated();
                    t.setReason(CONTAINER_STATUS_UNKNOWN);
                    t.setMessage("The container could not be located when the pod was terminated");
                    t.setExitCode(137);
                    state.setTerminated(t);
                    st.setRestartCount(old.getRestartCount() + 1);
                } else {
                    state.setWaiting(new ContainerStateWaiting());
                }
            }
        }
        st.setState(state);
        return st;
    }

    private static ContainerState waiting(String reason, String message) {
        ContainerState s = new ContainerState();
        ContainerStateWaiting w = new ContainerStateWaiting();
        w.setReason(reason);
        w.setMessage(emptyToNull(message));
        s.setWaiting(w);
        return s;
    }

    private static ContainerStatus copy(ContainerStatus o) {
        return new ContainerStatusBuilder(o).build();
    }

    /** RFC 3339 with second precision, as metav1.Time serializes. */
    public static String time(Instant t) {
        return t == null ? null : t.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static <T> List<T> orEmpty(List<T> l) {
        return l == null ? List.of() : l;
    }
}
