package io.jkubelet.core.admission;

import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.config.ConfigAnnotations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Whether a pod fits this node next to the pods already admitted (upstream {@code predicateAdmitHandler}
 * with the scheduler's {@code AdmissionCheck}): the pod's OS and supplemental groups policy, then the node's resources (pods, cpu,
 * memory, ephemeral-storage, hugepages and extended resources against allocatable minus what the admitted
 * pods request), its required node affinity and node selector, its node name, its host ports, and, for
 * pods that are not static, the node's NoExecute taints. Only the first failure is reported, with
 * upstream's reason and message.
 *
 * <p>Not done here: upstream lets a critical pod that only lacks resources preempt lower-priority pods
 * ({@code CriticalPodAdmissionHandler}); such a pod is rejected here like any other.
 */
public final class PredicateAdmitHandler {
    private static final Logger log = LoggerFactory.getLogger(PredicateAdmitHandler.class);

    public static final String INVALID_NODE_INFO = "InvalidNodeInfo";
    public static final String POD_OS_SELECTOR_NODE_LABEL_DOES_NOT_MATCH = "PodOSSelectorNodeLabelDoesNotMatch";
    public static final String POD_OS_NOT_SUPPORTED = "PodOSNotSupported";
    public static final String SUPPLEMENTAL_GROUPS_POLICY_NOT_SUPPORTED = "SupplementalGroupsPolicyNotSupported";
    public static final String INSUFFICIENT_RESOURCE_PREFIX = "OutOf";
    public static final String OUT_OF_PODS = "OutOfpods";
    public static final String OUT_OF_CPU = "OutOfcpu";
    public static final String OUT_OF_MEMORY = "OutOfmemory";
    public static final String OUT_OF_EPHEMERAL_STORAGE = "OutOfephemeral-storage";

    /** The scheduler plugins' names and failure texts ({@code nodeaffinity}, {@code nodename}, ...). */
    public static final String NODE_AFFINITY = "NodeAffinity";
    static final String NODE_AFFINITY_REASON = "node(s) didn't match Pod's node affinity/selector";
    public static final String NODE_NAME = "NodeName";
    static final String NODE_NAME_REASON = "node(s) didn't match the requested node name";
    public static final String NODE_PORTS = "NodePorts";
    static final String NODE_PORTS_REASON = "node(s) didn't have free ports for the requested pod ports";
    public static final String TAINT_TOLERATION = "TaintToleration";
    static final String TAINT_TOLERATION_REASON = "node(s) had taints that the pod didn't tolerate";

    static final String OS_LABEL = "kubernetes.io/os";
    /** The node's OS: the kubelet compares with its own {@code runtime.GOOS}; jkubelet runs pods on Linux. */
    static final String NODE_OS = "linux";

    /** One failed predicate: either a resource that is short or a named predicate. */
    private record Failure(String reason, String message) {}

    /**
     * Upstream's {@code pluginResourceUpdateFunc} (the device manager's {@code UpdatePluginResources}): the node's
     * allocatable as the predicates see it for a pod, given the node's (scalar amounts in base units).
     */
    @FunctionalInterface
    public interface PluginResources extends BiFunction<Pod, Map<String, Long>, Map<String, Long>> {
        PluginResources NONE = (pod, allocatable) -> allocatable;
    }

    private final PluginResources pluginResources;

    public PredicateAdmitHandler() {
        this(PluginResources.NONE);
    }

    public PredicateAdmitHandler(PluginResources pluginResources) {
        this.pluginResources = pluginResources;
    }

    /** The kubelet's predicates as its admit handler, against the node as {@code node} gives it when a pod comes. */
    public static PodAdmitHandler against(Supplier<Node> node) {
        return against(node, PluginResources.NONE);
    }

    /**
     * The kubelet's predicates as its admit handler, with the device plugins' resources raised to what admitted pods
     * hold ({@code pluginResources}) before the resources are compared, as upstream's handler does.
     */
    public static PodAdmitHandler against(Supplier<Node> node, PluginResources pluginResources) {
        PredicateAdmitHandler predicates = new PredicateAdmitHandler(pluginResources);
        return (pod, otherPods) -> predicates.admit(pod, otherPods, node);
    }

    /**
     * @param otherPods the pods admitted before and still active (not terminal, not being terminated)
     * @param node the node as last known (its labels, taints and allocatable)
     */
    public PodAdmitResult admit(Pod pod, List<Pod> otherPods, Supplier<Node> node) {
        Node n;
        try {
            n = node.get();
        } catch (RuntimeException e) {
            log.error("Cannot get Node info: {}", e.getMessage());
            n = null;
        }
        if (n == null) {
            return PodAdmitResult.reject(INVALID_NODE_INFO, "Kubelet cannot get node info.");
        }
        // Checks that preemption would not help come first (upstream's order).
        if (rejectOnOsSelector(pod, n)) {
            return PodAdmitResult.reject(POD_OS_SELECTOR_NODE_LABEL_DOES_NOT_MATCH,
                    "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label");
        }
        if (pod.getSpec().getOs() != null && !NODE_OS.equals(pod.getSpec().getOs().getName())) {
            return PodAdmitResult.reject(POD_OS_NOT_SUPPORTED, "Failed to admit pod as the OS field doesn't match node OS");
        }
        if (rejectOnSupplementalGroupsPolicy(pod)) {
            return PodAdmitResult.reject(SUPPLEMENTAL_GROUPS_POLICY_NOT_SUPPORTED,
                    "SupplementalGroupsPolicy=Strict is not supported in this node");
        }
        List<Failure> failures = generalFilter(pod, otherPods, n);
        if (failures.isEmpty()) {
            return PodAdmitResult.ADMIT;
        }
        Failure first = failures.get(0);
        log.debug("Predicate failed on pod {}/{}: {}", pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
                first.message());
        return PodAdmitResult.reject(first.reason(), first.message());
    }

    /**
     * Upstream's {@code rejectPodAdmissionBasedOnSupplementalGroupsPolicy} (v1.33, where the policy went beta): Merge is
     * what every runtime does; Strict (the image's {@code /etc/group} left out) needs a runtime that declares it in the
     * node's {@code status.features}, and neither Docker nor the CRI of Kubernetes 1.20 can, so this node never does.
     */
    private static boolean rejectOnSupplementalGroupsPolicy(Pod pod) {
        var sc = pod.getSpec().getSecurityContext();
        return sc != null && sc.getSupplementalGroupsPolicy() != null
                && !"Merge".equals(sc.getSupplementalGroupsPolicy());
    }

    /**
     * Upstream reads the pod's <em>labels</em> here (not its node selector); a node without the OS label
     * counts as the kubelet's own OS.
     */
    private static boolean rejectOnOsSelector(Pod pod, Node node) {
        Map<String, String> podLabels = pod.getMetadata().getLabels();
        String podOs = podLabels == null ? null : podLabels.get(OS_LABEL);
        if (podOs == null) {
            return false;
        }
        Map<String, String> nodeLabels = node.getMetadata() == null ? null : node.getMetadata().getLabels();
        String nodeOs = nodeLabels == null ? null : nodeLabels.get(OS_LABEL);
        if (nodeOs == null || !nodeOs.equals(NODE_OS)) {
            nodeOs = NODE_OS;
        }
        return !podOs.equals(nodeOs);
    }

    private List<Failure> generalFilter(Pod pod, List<Pod> otherPods, Node node) {
        List<Failure> failures = new ArrayList<>(resourceFit(pod, otherPods,
                pluginResources.apply(pod, ResourceRequests.amounts(allocatable(node)))));
        if (!RequiredNodeAffinity.matches(pod, node)) {
            failures.add(predicate(NODE_AFFINITY, NODE_AFFINITY_REASON));
        }
        String wantedNode = pod.getSpec().getNodeName();
        if (wantedNode != null && !wantedNode.isEmpty() && !wantedNode.equals(node.getMetadata().getName())) {
            failures.add(predicate(NODE_NAME, NODE_NAME_REASON));
        }
        HostPorts used = HostPorts.of(otherPods);
        for (ContainerPort cp : HostPorts.wanted(pod)) {
            if (used.conflicts(cp)) {
                failures.add(predicate(NODE_PORTS, NODE_PORTS_REASON));
                break;
            }
        }
        // The kubelet only cares about NoExecute taints, and never for static pods (they tolerate them anyway).
        if (!ConfigAnnotations.isStaticPod(pod) && node.getSpec() != null
                && Taints.findUntolerated(node.getSpec().getTaints(), pod.getSpec().getTolerations(),
                        t -> Taints.NO_EXECUTE.equals(t.getEffect())).isPresent()) {
            failures.add(predicate(TAINT_TOLERATION, TAINT_TOLERATION_REASON));
        }
        return failures;
    }

    private static Failure predicate(String name, String reason) {
        return new Failure(name, "Predicate " + name + " failed: " + reason);
    }

    /** The scheduler's {@code noderesources.Fits}: pods first, then each requested resource. */
    private static List<Failure> resourceFit(Pod pod, List<Pod> otherPods, Map<String, Long> allocatable) {
        List<Failure> failures = new ArrayList<>();
        long allowedPods = allocatable.getOrDefault(ResourceRequests.PODS, 0L);
        if (otherPods.size() + 1 > allowedPods) {
            failures.add(insufficient(ResourceRequests.PODS, 1, otherPods.size(), allowedPods));
        }
        Map<String, Long> request = withoutMissingExtendedResources(ResourceRequests.of(pod), allocatable);
        if (request.values().stream().allMatch(v -> v == 0)) {
            return failures;
        }
        Map<String, Long> used = new TreeMap<>();
        for (Pod p : otherPods) {
            ResourceRequests.of(p).forEach((k, v) -> used.merge(k, v, Long::sum));
        }
        for (String r : List.of(ResourceRequests.CPU, ResourceRequests.MEMORY, ResourceRequests.EPHEMERAL_STORAGE)) {
            check(r, request, used, allocatable).ifPresent(failures::add);
        }
        for (String r : new TreeMap<>(request).keySet()) {
            if (isScalarResource(r)) {
                check(r, request, used, allocatable).ifPresent(failures::add);
            }
        }
        return failures;
    }

    private static Optional<Failure> check(String resource, Map<String, Long> request, Map<String, Long> used,
            Map<String, Long> allocatable) {
        long want = request.getOrDefault(resource, 0L);
        long inUse = used.getOrDefault(resource, 0L);
        long capacity = allocatable.getOrDefault(resource, 0L);
        if (want > 0 && want > capacity - inUse) {
            return Optional.of(insufficient(resource, want, inUse, capacity));
        }
        return Optional.empty();
    }

    private static Failure insufficient(String resource, long requested, long used, long capacity) {
        String reason = INSUFFICIENT_RESOURCE_PREFIX + resource;
        return new Failure(reason, "Node didn't have enough resource: " + resource + ", requested: " + requested
                + ", used: " + used + ", capacity: " + capacity);
    }

    private static Map<String, Quantity> allocatable(Node node) {
        if (node.getStatus() == null || node.getStatus().getAllocatable() == null) {
            return Map.of();
        }
        return node.getStatus().getAllocatable();
    }

    /**
     * Extended resources the node does not know are left out (cluster-level resources), as upstream's
     * {@code removeMissingExtendedResources}.
     */
    private static Map<String, Long> withoutMissingExtendedResources(Map<String, Long> request, Map<String, Long> allocatable) {
        Map<String, Long> out = new TreeMap<>(request);
        out.keySet().removeIf(r -> isExtendedResource(r) && !allocatable.containsKey(r));
        return out;
    }

    /** Native resources have no domain or the {@code kubernetes.io/} one; quota's {@code requests.} names are not resources. */
    static boolean isExtendedResource(String name) {
        boolean nativeResource = !name.contains("/") || name.contains("kubernetes.io/");
        return !nativeResource && !name.startsWith("requests.");
    }

    /** Resources the scheduler tracks besides cpu, memory, ephemeral-storage and pods. */
    static boolean isScalarResource(String name) {
        return isExtendedResource(name) || name.startsWith("hugepages-") || name.startsWith("attachable-volumes-")
                || name.startsWith("kubernetes.io/");
    }
}
