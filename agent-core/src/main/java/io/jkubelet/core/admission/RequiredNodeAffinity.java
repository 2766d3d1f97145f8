package io.jkubelet.core.admission;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Map;

/**
 * Whether a node satisfies a pod's {@code spec.nodeSelector} and its required node affinity
 * ({@code requiredDuringSchedulingIgnoredDuringExecution}), as upstream's {@code GetRequiredNodeAffinity(pod).Match}:
 * every nodeSelector label must be on the node, and at least one node selector term must match. A term
 * matches when all its {@code matchExpressions} (on labels) and {@code matchFields} (only
 * {@code metadata.name}) hold; an empty term matches nothing; a term that is not a valid selector matches
 * nothing.
 */
public final class RequiredNodeAffinity {
    private RequiredNodeAffinity() {}

    public static boolean matches(Pod pod, Node node) {
        Map<String, String> labels = node.getMetadata() == null || node.getMetadata().getLabels() == null
                ? Map.of() : node.getMetadata().getLabels();
        Map<String, String> selector = pod.getSpec().getNodeSelector();
        if (selector != null) {
            for (Map.Entry<String, String> e : selector.entrySet()) {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
        }
        var affinity = pod.getSpec().getAffinity();
        if (affinity == null || affinity.getNodeAffinity() == null) {
            return true;
        }
        NodeSelector required = affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
        if (required == null) {
            return true;
        }
        String name = node.getMetadata() == null ? null : node.getMetadata().getName();
        for (NodeSelectorTerm term : nullToEmpty(required.getNodeSelectorTerms())) {
            if (termMatches(term, labels, name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean termMatches(NodeSelectorTerm term, Map<String, String> labels, String nodeName) {
        List<NodeSelectorRequirement> expressions = nullToEmpty(term.getMatchExpressions());
        List<NodeSelectorRequirement> fields = nullToEmpty(term.getMatchFields());
        if (expressions.isEmpty() && fields.isEmpty()) {
            return false;
        }
        for (NodeSelectorRequirement r : expressions) {
            if (!requirementMatches(r, labels)) {
                return false;
            }
        }
        for (NodeSelectorRequirement r : fields) {
            // Only metadata.name is a supported field, and only with In/NotIn of one value.
            if (!"metadata.name".equals(r.getKey()) || !("In".equals(r.getOperator()) || "NotIn".equals(r.getOperator()))
                    || nullToEmpty(r.getValues()).size() != 1) {
                return false;
            }
            Map<String, String> fieldSet = nodeName == null ? Map.of() : Map.of("metadata.name", nodeName);
            if (!requirementMatches(r, fieldSet)) {
                return false;
            }
        }
        return true;
    }

    /** One requirement over a label (or field) set, as labels.Requirement.Matches; an invalid one never matches. */
    static boolean requirementMatches(NodeSelectorRequirement r, Map<String, String> set) {
        List<String> values = nullToEmpty(r.getValues());
        String key = r.getKey();
        boolean has = set.containsKey(key);
        String value = set.get(key);
        switch (String.valueOf(r.getOperator())) {
            case "In":
                return !values.isEmpty() && has && values.contains(value);
            case "NotIn":
                return !values.isEmpty() && (!has || !values.contains(value));
            case "Exists":
                return values.isEmpty() && has;
            case "DoesNotExist":
                return values.isEmpty() && !has;
            case "Gt":
            case "Lt":
                if (values.size() != 1 || !has) {
                    return false;
                }
                try {
                    long want = Long.parseLong(values.get(0));
                    long got = Long.parseLong(value);
                    return "Gt".equals(r.getOperator()) ? got > want : got < want;
                } catch (NumberFormatException e) {
                    return false;
                }
            default:
                return false;
        }
    }

    private static <T> List<T> nullToEmpty(List<T> l) {
        return l == null ? List.of() : l;
    }
}
