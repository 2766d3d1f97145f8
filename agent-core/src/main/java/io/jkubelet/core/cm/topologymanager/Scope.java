package io.jkubelet.core.cm.topologymanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.podutil.PodSpecs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a topology manager scope shares (upstream's {@code scope}): the hint providers, the policy, and the hint each
 * admitted container was given, which the providers read back when they allocate. Thread-safe: the hints are read from
 * other threads (a device reallocation before a container start).
 */
abstract class Scope implements TopologyAffinityStore {
    /** Upstream {@code admission.ErrorReasonUnexpected}. */
    static final String UNEXPECTED_ADMISSION_ERROR = "UnexpectedAdmissionError";

    final Policy policy;
    final List<HintProvider> hintProviders = new CopyOnWriteArrayList<>();
    /** Told of each refusal by the {@code container} and {@code pod} scopes, where upstream counts admission errors. */
    volatile AdmissionMetrics metrics = AdmissionMetrics.NONE;
    /** Pod UID → container name → its admitted hint. */
    private final Map<String, Map<String, TopologyHint>> podTopologyHints = new HashMap<>();

    Scope(Policy policy) {
        this.policy = policy;
    }

    /** {@code container}, {@code pod} or {@code none}. */
    abstract String name();

    /** Admits the pod or says why not; its containers' resources are allocated when it is admitted. */
    abstract PodAdmitResult admit(Pod pod);

    @Override
    public synchronized TopologyHint getAffinity(String podUid, String containerName) {
        return podTopologyHints.getOrDefault(podUid, Map.of()).getOrDefault(containerName, TopologyHint.NONE);
    }

    synchronized void setTopologyHints(String podUid, String containerName, TopologyHint hint) {
        podTopologyHints.computeIfAbsent(podUid, k -> new HashMap<>()).put(containerName, hint);
    }

    /**
     * Forgets the hints of pods that are not in {@code keep}. Upstream forgets a container's hint when the container
     * stops; the providers read hints only while a pod is admitted or its container starts, so keeping them while the
     * pod is active gives the same allocations.
     */
    synchronized void retainPods(Set<String> keep) {
        podTopologyHints.keySet().retainAll(keep);
    }

    /** Upstream {@code admitPolicyNone}: each container's resources allocated without alignment. */
    PodAdmitResult admitPolicyNone(Pod pod) {
        for (Container c : containersInOrder(pod)) {
            PodAdmitResult r = allocateAlignedResources(pod, c);
            if (!r.admit()) {
                return r;
            }
        }
        return PodAdmitResult.ADMIT;
    }

    /** Upstream {@code allocateAlignedResources}: each provider allocates, in the order they were added. */
    PodAdmitResult allocateAlignedResources(Pod pod, Container container) {
        for (HintProvider p : hintProviders) {
            try {
                p.allocate(pod, container);
            } catch (AdmissionError e) {
                return PodAdmitResult.reject(e.type(), e.getMessage());
            } catch (Exception e) {
                return unexpectedAdmissionError(e.getMessage());
            }
        }
        return PodAdmitResult.ADMIT;
    }

    /** Upstream {@code admission.GetPodAdmitResult} of an error that is not an admission error of its own type. */
    static PodAdmitResult unexpectedAdmissionError(String error) {
        return PodAdmitResult.reject(UNEXPECTED_ADMISSION_ERROR, "Allocate failed due to " + error + ", which is unexpected");
    }

    static PodAdmitResult topologyAffinityError() {
        return PodAdmitResult.reject(TopologyAffinityError.REASON, TopologyAffinityError.MESSAGE);
    }

    /** Init containers first, then app containers, as upstream's admission walks them. */
    static List<Container> containersInOrder(Pod pod) {
        List<Container> all = new ArrayList<>(PodSpecs.initContainers(pod));
        all.addAll(PodSpecs.containers(pod));
        return all;
    }
}
