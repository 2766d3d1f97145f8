package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Node;
import io.jkubelet.core.admission.AppArmorAdmitHandler;
import io.jkubelet.core.admission.PodAdmitHandler;
import io.jkubelet.core.admission.PodFeaturesAdmitHandler;
import io.jkubelet.core.admission.PredicateAdmitHandler;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import io.jkubelet.core.eviction.EvictionManager;
import io.jkubelet.core.eviction.EvictionAdmitHandler;
import io.jkubelet.core.sysctl.SysctlAllowlist;

import java.util.List;
import java.util.function.Supplier;

/** The kubelet's admit handlers, in the order upstream asks them (upstream's {@code admitHandlers}). */
final class AdmitHandlers {
    private AdmitHandlers() {}

    /**
     * A node under pressure refuses before anything else is checked, then the sysctls, the resource managers'
     * allocation (the topology manager: devices now, next CPUs and memory), the predicates against the node (with the
     * device plugins' resources that admitted pods hold), AppArmor, the pod's features, and the node shutdown manager
     * last, as upstream adds it after the others. A new manager's handler goes where upstream adds it.
     *
     * @throws IllegalArgumentException when {@code allowedUnsafeSysctls} holds a bad pattern (the message names it)
     */
    static List<PodAdmitHandler> inUpstreamOrder(EvictionManager eviction, SecuritySettings security,
                                                 TopologyManager resourceAllocation, Supplier<Node> node,
                                                 PredicateAdmitHandler.PluginResources pluginResources,
                                                 NodeShutdown nodeShutdown) {
        return List.of(new EvictionAdmitHandler(eviction::nodeConditions),
                SysctlAllowlist.forThisKernel(security.allowedUnsafeSysctls()),
                resourceAllocation,
                PredicateAdmitHandler.against(node, pluginResources),
                AppArmorAdmitHandler.forHost(),
                // Where upstream asks its podFeaturesAdmitHandler and declaredFeaturesAdmitHandler: after AppArmor.
                PodFeaturesAdmitHandler.forHost(),
                (pod, others) -> nodeShutdown.admit(pod));
    }
}
