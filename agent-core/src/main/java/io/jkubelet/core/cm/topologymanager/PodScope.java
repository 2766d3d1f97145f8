package io.jkubelet.core.cm.topologymanager;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.podutil.PodSpecs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Upstream's {@code pod} scope: one merged hint for all of the pod's resources at once ({@code GetPodTopologyHints}),
 * the pod refused with {@code TopologyAffinityError} when the policy does not admit it, else every container given
 * that hint and its resources allocated, init containers first.
 */
final class PodScope extends Scope {
    private static final Logger log = LoggerFactory.getLogger(PodScope.class);

    PodScope(Policy policy) {
        super(policy);
    }

    @Override
    String name() {
        return "pod";
    }

    @Override
    PodAdmitResult admit(Pod pod) {
        List<Map<String, List<TopologyHint>>> providersHints = new ArrayList<>();
        for (HintProvider p : hintProviders) {
            Map<String, List<TopologyHint>> hints = p.getPodTopologyHints(pod);
            log.debug("TopologyHints {} for pod {}", hints, PodSpecs.format(pod));
            providersHints.add(hints);
        }
        Policy.Result best = policy.merge(providersHints);
        log.info("Best TopologyHint {} for pod {}", best.hint(), PodSpecs.format(pod));
        if (!best.admit()) {
            metrics.failed();
            return topologyAffinityError();
        }
        for (Container c : containersInOrder(pod)) {
            setTopologyHints(pod.getMetadata().getUid(), c.getName(), best.hint());
            PodAdmitResult allocated = allocateAlignedResources(pod, c);
            if (!allocated.admit()) {
                metrics.failed();
                return allocated;
            }
        }
        return PodAdmitResult.ADMIT;
    }
}
