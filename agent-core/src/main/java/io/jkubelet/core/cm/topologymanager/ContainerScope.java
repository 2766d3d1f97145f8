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
 * Upstream's {@code container} scope: each container in turn (init containers first) gets its own merged hint, is
 * refused with {@code TopologyAffinityError} when the policy does not admit it, else its resources are allocated
 * from that hint's nodes before the next container is considered.
 */
final class ContainerScope extends Scope {
    private static final Logger log = LoggerFactory.getLogger(ContainerScope.class);

    ContainerScope(Policy policy) {
        super(policy);
    }

    @Override
    String name() {
        return "container";
    }

    @Override
    PodAdmitResult admit(Pod pod) {
        String uid = pod.getMetadata().getUid();
        for (Container c : containersInOrder(pod)) {
            List<Map<String, List<TopologyHint>>> providersHints = new ArrayList<>();
            for (HintProvider p : hintProviders) {
                Map<String, List<TopologyHint>> hints = p.getTopologyHints(pod, c);
                log.debug("TopologyHints {} for pod {} container {}", hints, PodSpecs.format(pod), c.getName());
                providersHints.add(hints);
            }
            Policy.Result best = policy.merge(providersHints);
            log.info("Best TopologyHint {} for pod {} container {}", best.hint(), PodSpecs.format(pod), c.getName());
            if (!best.admit()) {
                metrics.failed();
                return topologyAffinityError();
            }
            setTopologyHints(uid, c.getName(), best.hint());
            PodAdmitResult allocated = allocateAlignedResources(pod, c);
            if (!allocated.admit()) {
                metrics.failed();
                return allocated;
            }
        }
        return PodAdmitResult.ADMIT;
    }
}
