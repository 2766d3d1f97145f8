package io.jkubelet.core.cm.topologymanager;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.admission.PodAdmitHandler;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.podutil.PodSpecs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The topology manager (upstream {@code topologymanager.manager}, v1.30): the kubelet's admit handler through which the
 * resource managers ({@link HintProvider}s) allocate a pod's resources, aligned to NUMA nodes as
 * {@code topologyManagerPolicy} and {@code topologyManagerScope} say; and the {@link TopologyAffinityStore} the
 * providers read each container's admitted NUMA nodes from. Admission runs on one thread; the store is thread-safe.
 */
public final class TopologyManager implements PodAdmitHandler, TopologyAffinityStore {
    private static final Logger log = LoggerFactory.getLogger(TopologyManager.class);
    /**
     * Upstream's {@code maxAllowableNUMANodes}: hints enumerate every combination of NUMA nodes, which explodes on more
     * nodes than this, so a policy other than {@code none} refuses such a machine.
     */
    public static final int MAX_ALLOWABLE_NUMA_NODES = 8;
    public static final String CONTAINER_SCOPE = "container";
    public static final String POD_SCOPE = "pod";

    private final Scope scope;
    private final List<Integer> numaNodes;
    private volatile AdmissionMetrics metrics = AdmissionMetrics.NONE;
    private volatile Clock clock = Clock.systemUTC();

    private TopologyManager(Scope scope, List<Integer> numaNodes) {
        this.scope = scope;
        this.numaNodes = List.copyOf(numaNodes);
    }

    /**
     * The {@code none} policy on a machine of one NUMA node (node 0): no alignment, no hints.
     *
     * @param providers added at once, in this order (more may be added later)
     */
    public static TopologyManager none(HintProvider... providers) {
        TopologyManager m = new TopologyManager(new NoneScope(), List.of(0));
        for (HintProvider p : providers) {
            m.addHintProvider(p);
        }
        return m;
    }

    /**
     * Upstream {@code NewManager}. The {@code none} policy takes neither scope nor options into account, as upstream's.
     *
     * @param topology the machine's NUMA nodes and their distances
     * @throws IllegalArgumentException with upstream's message for an unknown option, policy or scope, distances missing
     *     under {@code prefer-closest-numa-nodes}, or more NUMA nodes than {@value #MAX_ALLOWABLE_NUMA_NODES}
     */
    public static TopologyManager create(NumaInfo topology, String policyName, String scopeName,
                                         Map<String, String> policyOptions) {
        if (Policy.NONE.equals(policyName)) {
            log.info("Creating topology manager with none policy");
            return new TopologyManager(new NoneScope(), topology.nodes());
        }
        PolicyOptions options = PolicyOptions.parse(policyOptions);
        log.info("Creating topology manager with policy per scope: topologyPolicyName={} topologyScopeName={} "
                + "topologyPolicyOptions={}", policyName, scopeName, options);
        if (options.preferClosestNuma()
                && topology.nodes().stream().anyMatch(n -> topology.distances().getOrDefault(n, List.of()).isEmpty())) {
            throw new IllegalArgumentException("cannot discover NUMA topology: error getting NUMA distances from cadvisor");
        }
        if (topology.nodes().size() > MAX_ALLOWABLE_NUMA_NODES) {
            throw new IllegalArgumentException("unsupported on machines with more than " + MAX_ALLOWABLE_NUMA_NODES
                    + " NUMA Nodes");
        }
        Policy policy = Policy.of(policyName, topology, options);
        Scope scope = switch (scopeName) {
            case CONTAINER_SCOPE -> new ContainerScope(policy);
            case POD_SCOPE -> new PodScope(policy);
            default -> throw new IllegalArgumentException("unknown scope: \"" + scopeName + "\"");
        };
        return new TopologyManager(scope, topology.nodes());
    }

    /**
     * Upstream {@code AddHintProvider}: the provider is asked for hints and allocates, after those added before it
     * (upstream's order: the device manager, the CPU manager, the memory manager).
     */
    public void addHintProvider(HintProvider provider) {
        scope.hintProviders.add(provider);
    }

    /** The machine's NUMA node IDs, ascending: what the device manager's hints range over. */
    public List<Integer> numaNodes() {
        return numaNodes;
    }

    /**
     * Counts each admission, each refusal of the {@code container} and {@code pod} scopes, and times each decision on
     * {@code clock}, from now on (the kubelet's metrics).
     */
    public void observeAdmissions(AdmissionMetrics metrics, Clock clock) {
        this.clock = clock;
        this.metrics = metrics;
        scope.metrics = metrics;
    }

    /** The policy's name. */
    public String policyName() {
        return scope.policy.name();
    }

    /** The scope's name: {@code container}, {@code pod}, or {@code none} under the {@code none} policy. */
    public String scopeName() {
        return scope.name();
    }

    @Override
    public TopologyHint getAffinity(String podUid, String containerName) {
        return scope.getAffinity(podUid, containerName);
    }

    /**
     * Upstream {@code Admit}: the scope's decision; an admitted pod's resources are allocated. The hints of pods that
     * are no longer active are forgotten first.
     */
    @Override
    public PodAdmitResult admit(Pod pod, List<Pod> otherPods) {
        log.debug("Topology manager admission check for pod {}", PodSpecs.format(pod));
        Set<String> active = new HashSet<>();
        otherPods.forEach(p -> active.add(p.getMetadata().getUid()));
        active.add(pod.getMetadata().getUid());
        scope.retainPods(active);
        // Upstream counts and times every pod, whatever the policy; only the scope's decision is timed.
        AdmissionMetrics m = metrics;
        m.requested();
        Instant start = clock.instant();
        PodAdmitResult result = scope.admit(pod);
        m.took(Duration.between(start, clock.instant()));
        return result;
    }
}
