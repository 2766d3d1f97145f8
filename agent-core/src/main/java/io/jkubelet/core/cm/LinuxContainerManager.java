package io.jkubelet.core.cm;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The container manager on a Linux node with cgroups (upstream {@code containerManagerImpl}): with
 * {@code cgroupsPerQOS}, {@code <cgroupRoot>/kubepods} holds every pod, limited to node allocatable when
 * {@code enforceNodeAllocatable} has {@code pods} (else to the capacity, so that pods never starve on the default
 * CPU shares), with the QoS cgroups and the pod cgroups below it; {@code system-reserved} and {@code kube-reserved}
 * enforcement limit the cgroups the operator names for them.
 */
public final class LinuxContainerManager implements ContainerManager {
    private static final Logger log = LoggerFactory.getLogger(LinuxContainerManager.class);

    /** The node allocatable cgroup below {@code cgroupRoot} (upstream {@code defaultNodeAllocatableCgroupName}). */
    public static final String NODE_ALLOCATABLE_CGROUP = "kubepods";
    /** How often the QoS cgroups are brought up to date besides pod starts and kills (upstream's 1 min). */
    static final Duration QOS_UPDATE_PERIOD = Duration.ofMinutes(1);
    /** How long to wait before enforcing node allocatable again after a failure (pods using more than the new limit). */
    static final Duration ENFORCE_RETRY_PERIOD = Duration.ofMinutes(1);
    public static final String SUCCESSFUL_ENFORCEMENT = "SuccessfulNodeAllocatableEnforcement";
    public static final String FAILED_ENFORCEMENT = "FailedNodeAllocatableEnforcement";

    private final NodeConfig config;
    private final CgroupManager cgroups;
    /** cpu and memory of the machine, for the reservation checks. */
    private final Map<String, Quantity> capacity;
    /** capacity with the process IDs ({@code pid}), which only the top-level cgroups are limited by. */
    private final Map<String, BigDecimal> internalCapacity;
    /** {@code kubepods} below the cgroup root with pod cgroups; else the cgroup root itself. */
    private final CgroupName cgroupRoot;
    private final QosContainerManager qos;
    private final PodContainerManager pods;
    private volatile Supplier<List<Pod>> activePods = List::of;

    private LinuxContainerManager(NodeConfig config, CgroupManager cgroups, Map<String, Quantity> capacity,
                                  OptionalLong maxPids, CgroupName cgroupRoot) {
        this.config = config;
        this.cgroups = cgroups;
        this.capacity = Map.copyOf(capacity);
        Map<String, BigDecimal> internal = new LinkedHashMap<>();
        capacity.forEach((name, q) -> internal.put(name, q.getNumericalAmount()));
        maxPids.ifPresent(n -> internal.put(ResourceConfig.PID, BigDecimal.valueOf(n)));
        this.internalCapacity = internal;
        this.cgroupRoot = cgroupRoot;
        this.qos = new QosContainerManager(cgroups, cgroupRoot);
        this.pods = config.cgroupsPerQos()
                ? new PodCgroups(cgroups, qos, config.enforceCpuLimits(), config.cpuCfsQuotaPeriodUs(), config.podPidsLimit())
                : PodContainerManager.NOOP;
    }

    /**
     * Upstream {@code NewContainerManager}: checks that the configured cgroup root exists (the operator creates it,
     * or it is {@code /}).
     *
     * @param capacity the machine's {@code cpu} and {@code memory}
     * @param maxPids the node's process limit ({@link PidLimit}), when known
     * @throws CgroupException naming the missing cgroup root
     */
    public static LinuxContainerManager create(NodeConfig config, CgroupManager cgroups, Map<String, Quantity> capacity,
                                               OptionalLong maxPids) throws CgroupException {
        CgroupName root = CgroupName.parseCgroupfs(config.cgroupRoot());
        if (config.cgroupsPerQos()) {
            try {
                cgroups.validate(root);
            } catch (CgroupException e) {
                throw new CgroupException("invalid configuration: " + e.getMessage(), e);
            }
            log.info("Container manager verified user specified cgroup-root exists: {}", config.cgroupRoot());
            root = root.child(NODE_ALLOCATABLE_CGROUP);
        }
        return new LinuxContainerManager(config, cgroups, capacity, maxPids, root);
    }

    @Override
    public void start(Supplier<List<Pod>> activePods, ScheduledExecutorService timers, EventRecorder recorder,
                      String nodeName) throws CgroupException {
        this.activePods = activePods;
        var invalid = config.nodeAllocatable().invalid(capacity);
        if (invalid.isPresent()) {
            throw new CgroupException(invalid.get());
        }
        if (config.cgroupsPerQos()) {
            createNodeAllocatableCgroup();
            try {
                qos.start();
            } catch (CgroupException e) {
                throw new CgroupException("failed to initialize top level QOS containers: " + e.getMessage(), e);
            }
            long period = QOS_UPDATE_PERIOD.toMillis();
            timers.scheduleWithFixedDelay(this::updateQosCgroupsQuietly, 0, period, TimeUnit.MILLISECONDS);
        }
        new NodeAllocatableEnforcement(config, cgroups, cgroupRoot, nodeAllocatable(), recorder,
                References.node(nodeName), timers, ENFORCE_RETRY_PERIOD).enforce();
    }

    /** Upstream {@code createNodeAllocatableCgroups}: {@code kubepods}, unless it is there from an earlier start. */
    private void createNodeAllocatableCgroup() throws CgroupException {
        if (!cgroups.exists(cgroupRoot)) {
            cgroups.create(cgroupRoot, ResourceConfig.forResources(NodeAllocatable.cgroupUnits(nodeAllocatable())));
        }
    }

    /** What {@code kubepods} may use: allocatable when {@code pods} is enforced, else all of the machine. */
    private Map<String, BigDecimal> nodeAllocatable() {
        if (config.cgroupsPerQos() && config.enforceNodeAllocatable().contains(NodeConfig.ENFORCE_PODS)) {
            return config.nodeAllocatable().absolute(internalCapacity);
        }
        return internalCapacity;
    }

    @Override
    public Optional<String> podCgroupRoot() {
        return config.cgroupsPerQos() ? Optional.of(cgroups.path(cgroupRoot)) : Optional.empty();
    }

    @Override
    public PodContainerManager podContainerManager() {
        return pods;
    }

    @Override
    public void updateQosCgroups() throws CgroupException {
        if (config.cgroupsPerQos()) {
            qos.update(activePods.get());
        }
    }

    private void updateQosCgroupsQuietly() {
        try {
            updateQosCgroups();
        } catch (CgroupException | RuntimeException e) {
            log.info("Failed to reserve QoS requests: {}", e.getMessage());
        }
    }

    @Override
    public boolean cgroupsPerQos() {
        return config.cgroupsPerQos();
    }

    @Override
    public Map<String, BigDecimal> nodeAllocatableReservation(Map<String, Quantity> capacity) {
        return config.nodeAllocatable().reservation(capacity);
    }
}
