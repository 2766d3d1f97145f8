package io.jkubelet.core.cm.topologymanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.admission.PodAdmitHandler;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.podutil.PodSpecs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The topology manager as the kubelet's admit handler of resource allocation (upstream {@code manager.Admit}, the
 * container manager's {@code GetAllocateResourcesPodAdmitHandler}), with the {@code none} policy: each container in
 * turn, init containers first, is given its resources by each hint provider in the order they were added; the first
 * failure refuses the pod with upstream's {@code UnexpectedAdmissionError}.
 */
public final class TopologyManager implements PodAdmitHandler {
    private static final Logger log = LoggerFactory.getLogger(TopologyManager.class);
    /** Upstream {@code admission.ErrorReasonUnexpected}. */
    public static final String UNEXPECTED_ADMISSION_ERROR = "UnexpectedAdmissionError";

    private final List<HintProvider> providers;

    /** @param providers in upstream's order: the device manager, the CPU manager, the memory manager */
    public TopologyManager(List<HintProvider> providers) {
        this.providers = List.copyOf(providers);
    }

    /** Upstream's providers in its order: the device manager, then the CPU manager when there is one (static policy). */
    public static TopologyManager of(HintProvider devices, Optional<? extends HintProvider> cpus) {
        List<HintProvider> providers = new ArrayList<>(List.of(devices));
        cpus.ifPresent(providers::add);
        return new TopologyManager(providers);
    }

    @Override
    public PodAdmitResult admit(Pod pod, List<Pod> otherPods) {
        log.debug("Topology manager admission check for pod {}", PodSpecs.format(pod));
        List<Container> containers = new ArrayList<>(PodSpecs.initContainers(pod));
        containers.addAll(PodSpecs.containers(pod));
        for (Container c : containers) {
            for (HintProvider p : providers) {
                try {
                    p.allocate(pod, c);
                } catch (AdmissionError e) {
                    return PodAdmitResult.reject(e.type(), e.getMessage());
                } catch (Exception e) {
                    return unexpectedAdmissionError(e.getMessage());
                }
            }
        }
        return PodAdmitResult.ADMIT;
    }

    /** Upstream {@code admission.GetPodAdmitResult} of an error that is not an admission error of its own type. */
    static PodAdmitResult unexpectedAdmissionError(String error) {
        return PodAdmitResult.reject(UNEXPECTED_ADMISSION_ERROR, "Allocate failed due to " + error + ", which is unexpected");
    }
}
