package io.jkubelet.cmd;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeSystemInfo;
import io.fabric8.kubernetes.api.model.NodeSystemInfoBuilder;
import io.jkubelet.core.nodestatus.NodePressure;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.RuntimeVersion;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The node as the dashboard shows it. A cluster node's is the one it registered (its status setters wrote the
 * conditions and node info); a standalone node has no node object, so its machine node gets the conditions the
 * kubelet would report (the pressures, and Ready from the PLEG's health) and the runtime's version.
 */
final class DashboardNode implements Supplier<Optional<Node>> {
    private final Supplier<Node> node;
    private final NodePressure pressure;
    private final Supplier<Optional<String>> plegHealth;
    private final RuntimeService runtime;
    private final String kubeletVersion;
    /** Asked of the runtime once: it does not change while the connection lasts. */
    private volatile RuntimeVersion runtimeVersion;

    DashboardNode(Supplier<Node> node, NodePressure pressure, Supplier<Optional<String>> plegHealth, RuntimeService runtime,
                  String kubeletVersion) {
        this.node = node;
        this.pressure = pressure;
        this.plegHealth = plegHealth;
        this.runtime = runtime;
        this.kubeletVersion = kubeletVersion;
    }

    @Override
    public Optional<Node> get() {
        Node base = node.get();
        if (base == null) {
            return Optional.empty();
        }
        NodeBuilder b = new NodeBuilder(base);
        if (base.getStatus() == null || base.getStatus().getConditions() == null || base.getStatus().getConditions().isEmpty()) {
            b.editOrNewStatus().withConditions(conditions()).endStatus();
        }
        NodeSystemInfo info = base.getStatus() == null ? null : base.getStatus().getNodeInfo();
        if (info == null || info.getContainerRuntimeVersion() == null || info.getContainerRuntimeVersion().isEmpty()) {
            NodeSystemInfo filled = info == null ? new NodeSystemInfo() : new NodeSystemInfoBuilder(info).build();
            filled.setKubeletVersion(kubeletVersion);
            filled.setContainerRuntimeVersion(runtimeVersion());
            filled.setKernelVersion(System.getProperty("os.version"));
            filled.setOperatingSystem("linux");
            filled.setArchitecture(System.getProperty("os.arch"));
            b.editOrNewStatus().withNodeInfo(filled).endStatus();
        }
        return Optional.of(b.build());
    }

    private List<NodeCondition> conditions() {
        List<NodeCondition> out = new ArrayList<>();
        out.add(condition("MemoryPressure", pressure.memoryPressure(), "KubeletHasInsufficientMemory", "KubeletHasSufficientMemory"));
        out.add(condition("DiskPressure", pressure.diskPressure(), "KubeletHasDiskPressure", "KubeletHasNoDiskPressure"));
        out.add(condition("PIDPressure", pressure.pidPressure(), "KubeletHasInsufficientPID", "KubeletHasSufficientPID"));
        Optional<String> pleg = plegHealth.get();
        out.add(new NodeConditionBuilder().withType("Ready").withStatus(pleg.isEmpty() ? "True" : "False")
                .withReason(pleg.isEmpty() ? "KubeletReady" : "KubeletNotReady")
                .withMessage(pleg.orElse("kubelet is posting ready status")).build());
        return out;
    }

    private static NodeCondition condition(String type, boolean under, String reasonTrue, String reasonFalse) {
        return new NodeConditionBuilder().withType(type).withStatus(under ? "True" : "False")
                .withReason(under ? reasonTrue : reasonFalse).build();
    }

    private String runtimeVersion() {
        RuntimeVersion v = runtimeVersion;
        if (v == null) {
            try {
                v = runtime.version();
                runtimeVersion = v;
            } catch (RuntimeException e) {
                return "unknown (" + e.getMessage() + ")";
            }
        }
        return v.runtimeName() + "://" + v.runtimeVersion();
    }
}
