package io.jkubelet.cmd;

import io.jkubelet.core.config.validation.NameValidation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code --node-labels} checked as upstream's {@code ValidateKubeletFlags}: a kubelet may set labels in the
 * {@code kubernetes.io} and {@code k8s.io} namespaces only under its own prefixes or from the well-known set
 * ({@code pkg/kubelet/apis}: the NodeRestriction admission plugin refuses the others), and every key and value must be
 * a valid label.
 */
final class NodeLabelsValidation {

    /** Upstream's {@code kubeletLabelNamespaces}, sorted as its error lists them. */
    static final List<String> KUBELET_LABEL_NAMESPACES = List.of("kubelet.kubernetes.io", "node.kubernetes.io");
    /** Upstream's {@code kubeletLabels}, sorted as its error lists them. */
    static final List<String> KUBELET_LABELS = List.of("beta.kubernetes.io/arch", "beta.kubernetes.io/instance-type",
            "beta.kubernetes.io/os", "failure-domain.beta.kubernetes.io/region", "failure-domain.beta.kubernetes.io/zone",
            "kubernetes.io/arch", "kubernetes.io/hostname", "kubernetes.io/os", "node.kubernetes.io/instance-type",
            "topology.kubernetes.io/region", "topology.kubernetes.io/zone");

    private NodeLabelsValidation() {
    }

    /** @throws FlagsException with upstream's message, prefixed as the kubelet's command prefixes it */
    static void validate(Map<String, String> labels) throws FlagsException {
        Set<String> unknown = new TreeSet<>();
        Map<String, List<String>> invalid = new LinkedHashMap<>();
        labels.forEach((key, value) -> {
            if (isKubernetesLabel(key) && !isKubeletLabel(key)) {
                unknown.add(key);
            }
            NameValidation.qualifiedName(key).forEach(m -> invalid.computeIfAbsent(key, k -> new ArrayList<>()).add(m));
            NameValidation.labelValue(value).forEach(m -> invalid.computeIfAbsent(value, k -> new ArrayList<>()).add(m));
        });
        if (!unknown.isEmpty()) {
            throw new FlagsException("failed to validate kubelet flags: unknown 'kubernetes.io' or 'k8s.io' labels specified "
                    + "with --node-labels: [" + String.join(" ", unknown) + "]\n--node-labels in the 'kubernetes.io' namespace "
                    + "must begin with an allowed prefix (" + String.join(", ", KUBELET_LABEL_NAMESPACES) + ") or be in the "
                    + "specifically allowed set (" + String.join(", ", KUBELET_LABELS) + ")");
        }
        if (!invalid.isEmpty()) {
            List<String> problems = new ArrayList<>();
            invalid.forEach((label, messages) -> problems.add("'" + label + "' - " + String.join(", ", messages)));
            throw new FlagsException("failed to validate kubelet flags: invalid node labels: " + String.join("; ", problems));
        }
    }

    static boolean isKubernetesLabel(String key) {
        String namespace = namespace(key);
        return namespace.equals("kubernetes.io") || namespace.endsWith(".kubernetes.io")
                || namespace.equals("k8s.io") || namespace.endsWith(".k8s.io");
    }

    static boolean isKubeletLabel(String key) {
        if (KUBELET_LABELS.contains(key)) {
            return true;
        }
        String namespace = namespace(key);
        return KUBELET_LABEL_NAMESPACES.stream().anyMatch(ns -> namespace.equals(ns) || namespace.endsWith("." + ns));
    }

    private static String namespace(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? "" : key.substring(0, slash);
    }
}
