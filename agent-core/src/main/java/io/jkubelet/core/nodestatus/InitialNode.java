package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Node this kubelet registers (upstream {@code initialNode}): the default labels, {@code --node-labels}
 * on top, the {@code registerWithTaints} taints, the controller-managed attach/detach annotation, the
 * provider ID, and a computed status. Needs no apiserver.
 */
public final class InitialNode {
    private static final Logger log = LoggerFactory.getLogger(InitialNode.class);

    public static final String LABEL_HOSTNAME = "kubernetes.io/hostname";
    public static final String LABEL_OS = "kubernetes.io/os";
    public static final String LABEL_ARCH = "kubernetes.io/arch";
    public static final String LEGACY_LABEL_OS = "beta.kubernetes.io/os";
    public static final String LEGACY_LABEL_ARCH = "beta.kubernetes.io/arch";
    /** Labels reconciled onto an existing node at registration (upstream {@code updateDefaultLabels}). */
    public static final List<String> DEFAULT_LABELS = List.of(LABEL_HOSTNAME,
            "topology.kubernetes.io/zone", "topology.kubernetes.io/region", "node.kubernetes.io/instance-type",
            LABEL_OS, LABEL_ARCH, "failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region",
            "beta.kubernetes.io/instance-type", LEGACY_LABEL_OS, LEGACY_LABEL_ARCH);
    /** volutil.ControllerManagedAttachAnnotation: the attach/detach controller, not the kubelet, attaches volumes. */
    public static final String CONTROLLER_MANAGED_ATTACH_ANNOTATION = "volumes.kubernetes.io/controller-managed-attach-detach";

    private InitialNode() {
    }

    public static Node build(NodeIdentity identity, KubeletConfiguration config, NodeStatusSetters setters) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LABEL_HOSTNAME, identity.hostname());
        labels.put(LABEL_OS, "linux");
        labels.put(LABEL_ARCH, NodeStatusSetters.architecture());
        labels.put(LEGACY_LABEL_OS, "linux");
        labels.put(LEGACY_LABEL_ARCH, NodeStatusSetters.architecture());
        identity.nodeLabels().forEach((k, v) -> {
            String was = labels.put(k, v);
            if (was != null) {
                log.warn("the node label {}={} will overwrite default setting {}", k, v, was);
            }
        });
        List<Taint> taints = new ArrayList<>();
        if (config.registerWithTaints() != null) {
            for (var t : config.registerWithTaints()) {
                taints.add(new TaintBuilder().withKey(t.key()).withValue(t.value().isEmpty() ? null : t.value())
                        .withEffect(t.effect()).withTimeAdded(t.timeAdded()).build());
            }
        }
        NodeBuilder b = new NodeBuilder().withNewMetadata().withName(identity.nodeName()).withLabels(labels).endMetadata()
                .withNewSpec().endSpec();
        Node node = b.build();
        // Upstream sets the annotation only with enableControllerAttachDetach (the default); without it the node says
        // nothing and the controller leaves attaching to the kubelet. Registration removes it from an existing node.
        if (!Boolean.FALSE.equals(config.enableControllerAttachDetach())) {
            node.getMetadata().setAnnotations(new LinkedHashMap<>(Map.of(CONTROLLER_MANAGED_ATTACH_ANNOTATION, "true")));
        } else {
            log.info("Controller attach/detach is disabled for this node; Kubelet will attach and detach volumes");
        }
        if (!taints.isEmpty()) {
            node.getSpec().setTaints(taints);
        }
        if (config.providerID() != null && !config.providerID().isEmpty()) {
            node.getSpec().setProviderID(config.providerID());
        }
        setters.setNodeStatus(node);
        return node;
    }
}
