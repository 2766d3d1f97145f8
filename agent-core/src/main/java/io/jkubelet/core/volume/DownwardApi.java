package io.jkubelet.core.volume;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceFieldSelector;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.podutil.Resources;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Values of the downward API as files see them (upstream {@code fieldpath.ExtractFieldPathAsString} and
 * {@code ExtractResourceValueByContainerName}): maps are {@code key="value"} lines sorted by key, values quoted as
 * Go's {@code %q}, no trailing newline.
 */
public final class DownwardApi {
    private static final Pattern SUBSCRIPT = Pattern.compile("metadata\\.(labels|annotations)\\['(.+)'\\]");

    private DownwardApi() {}

    /**
     * @param hostIps the node's IPs (status.hostIP)
     * @throws IllegalArgumentException naming an unsupported field path
     */
    public static String fieldValue(Pod pod, String fieldPath, String nodeName, List<String> hostIps) {
        var meta = pod.getMetadata();
        Matcher m = SUBSCRIPT.matcher(fieldPath);
        if (m.matches()) {
            Map<String, String> map = "labels".equals(m.group(1)) ? meta.getLabels() : meta.getAnnotations();
            return map == null ? "" : map.getOrDefault(m.group(2), "");
        }
        var status = pod.getStatus();
        return switch (fieldPath) {
            case "metadata.name" -> meta.getName();
            case "metadata.namespace" -> meta.getNamespace();
            case "metadata.uid" -> meta.getUid();
            case "metadata.labels" -> formatMap(meta.getLabels());
            case "metadata.annotations" -> formatMap(meta.getAnnotations());
            case "spec.nodeName" -> pod.getSpec().getNodeName() == null ? nodeName : pod.getSpec().getNodeName();
            case "spec.serviceAccountName" -> nullToEmpty(pod.getSpec().getServiceAccountName());
            case "status.hostIP" -> hostIps.isEmpty() ? "" : hostIps.get(0);
            case "status.podIP" -> PodSpecs.hostNetwork(pod) ? (hostIps.isEmpty() ? "" : hostIps.get(0))
                    : status == null ? "" : nullToEmpty(status.getPodIP());
            default -> throw new IllegalArgumentException("unsupported fieldPath \"" + fieldPath + "\"");
        };
    }

    /** Upstream {@code FormatMap}: sorted {@code key="value"} lines. */
    public static String formatMap(Map<String, String> m) {
        if (m == null || m.isEmpty()) {
            return "";
        }
        List<String> lines = new ArrayList<>();
        m.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> lines.add(e.getKey() + "=" + goQuote(e.getValue())));
        return String.join("\n", lines);
    }

    /** Go's {@code %q} of a string, for the characters labels and annotations hold. */
    static String goQuote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        sb.append(String.format("\\x%02x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /**
     * A container's resource as a string, divided by the divisor and rounded up (upstream
     * {@code ExtractResourceValueByContainerNameAndNodeAllocatable}): a limit the container does not set is the node's
     * allocatable, as upstream's kubelet defaults limits for the downward API.
     *
     * @param allocatable the node's allocatable ({@code cpu}, {@code memory}, {@code ephemeral-storage})
     * @throws IllegalArgumentException naming a missing container or an unsupported resource
     */
    public static String resourceValue(Pod pod, ResourceFieldSelector sel, Map<String, Quantity> allocatable) {
        String name = sel.getContainerName();
        Container c = null;
        List<Container> all = new ArrayList<>(PodSpecs.initContainers(pod));
        all.addAll(PodSpecs.containers(pod));
        for (Container x : all) {
            if (x.getName().equals(name)) {
                c = x;
            }
        }
        if (c == null) {
            throw new IllegalArgumentException("container " + name + " not found");
        }
        return containerResourceValue(c, sel, allocatable);
    }

    /** {@link #resourceValue} of container {@code c} (env's {@code resourceFieldRef}, which names no container). */
    public static String containerResourceValue(Container c, ResourceFieldSelector sel, Map<String, Quantity> allocatable) {
        String res = sel.getResource();
        Quantity q = switch (res) {
            case "limits.cpu" -> limitOrAllocatable(c, "cpu", allocatable);
            case "limits.memory" -> limitOrAllocatable(c, "memory", allocatable);
            case "limits.ephemeral-storage" -> limitOrAllocatable(c, "ephemeral-storage", allocatable);
            case "requests.cpu" -> Resources.request(c, "cpu");
            case "requests.memory" -> Resources.request(c, "memory");
            case "requests.ephemeral-storage" -> Resources.request(c, "ephemeral-storage");
            default -> throw new IllegalArgumentException("unsupported container resource : " + res);
        };
        if (q == null) {
            return "0";
        }
        BigDecimal divisor = sel.getDivisor() == null ? BigDecimal.ONE : Quantity.getAmountInBytes(sel.getDivisor());
        if (divisor.signum() == 0) {
            divisor = BigDecimal.ONE;
        }
        return Quantity.getAmountInBytes(q).divide(divisor, 0, RoundingMode.CEILING).toPlainString();
    }

    private static Quantity limitOrAllocatable(Container c, String resource, Map<String, Quantity> allocatable) {
        Quantity limit = Resources.limit(c, resource);
        return limit != null ? limit : allocatable == null ? null : allocatable.get(resource);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
