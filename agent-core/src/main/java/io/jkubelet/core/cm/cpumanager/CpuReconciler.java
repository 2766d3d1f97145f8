package io.jkubelet.core.cm.cpumanager;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.cm.ResourceManagerStartException;
import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.RuntimeService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The CPU manager's reconcile loop (upstream's {@code reconcileState}, every {@code cpuManagerReconcilePeriod}): once
 * the pod sources are ready the CPUs of containers no longer active are given back, then each running container of an
 * active pod is moved, through the runtime's {@code UpdateContainerResources}, to the CPUs it should have now when
 * they differ from those it was last given: the shared pool shrinks and grows as exclusive CPUs are taken and freed.
 */
public final class CpuReconciler implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(CpuReconciler.class);

    private final CpuManager manager;
    private final RuntimeService runtime;
    private final Supplier<List<Pod>> activePods;
    private final BooleanSupplier sourcesReady;
    /** Upstream's {@code lastUpdateState}: the cpuset last written to each container, by container ID. */
    private final Map<String, String> lastUpdate = new HashMap<>();

    public CpuReconciler(CpuManager manager, RuntimeService runtime, Supplier<List<Pod>> activePods,
                         BooleanSupplier sourcesReady) {
        this.manager = manager;
        this.runtime = runtime;
        this.activePods = activePods;
        this.sourcesReady = sourcesReady;
    }

    /**
     * Upstream's {@code cpumanager.Start}: the manager's state read and checked, then this loop every
     * {@code cpuManagerReconcilePeriod} on {@code timers}.
     *
     * @throws ResourceManagerStartException when the state does not fit the policy or cannot be read or written
     *     (upstream's "start cpu manager error: ...")
     */
    public static void start(CpuManager manager, RuntimeService runtime, Supplier<List<Pod>> activePods,
                             BooleanSupplier sourcesReady, ScheduledExecutorService timers) throws ResourceManagerStartException {
        try {
            manager.start();
        } catch (IllegalStateException | IOException e) {
            throw new ResourceManagerStartException("start cpu manager error: " + e.getMessage(), e);
        }
        long period = manager.reconcilePeriod().toMillis();
        timers.scheduleWithFixedDelay(new CpuReconciler(manager, runtime, activePods, sourcesReady), period, period,
                TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void run() {
        List<Pod> active = activePods.get();
        try {
            if (sourcesReady.getAsBoolean()) {
                manager.removeStaleState(active);
            }
        } catch (IOException e) {
            log.error("[cpumanager] could not save checkpoint: {}", e.getMessage());
        }
        Set<String> activeUids = new HashSet<>();
        active.forEach(p -> activeUids.add(p.getMetadata().getUid()));
        Set<String> seen = new HashSet<>();
        for (Container c : runtime.listContainers(new ContainerFilter(null, ContainerState.CONTAINER_RUNNING, null, null))) {
            String uid = c.labels().get(Labels.POD_UID);
            if (uid == null || !activeUids.contains(uid)) {
                continue;
            }
            seen.add(c.id());
            String cpus = manager.cpuSet(uid, c.metadata().name()).toString();
            if (cpus.isEmpty() || cpus.equals(lastUpdate.get(c.id()))) {
                continue;
            }
            try {
                runtime.updateContainerResources(c.id(), new LinuxContainerResources(0, 0, 0, 0, 0, cpus));
                lastUpdate.put(c.id(), cpus);
            } catch (RuntimeException e) {
                log.error("[cpumanager] reconcileState: failed to update container (pod: {}, container: {}, container "
                        + "id: {}, cpuset: \"{}\", error: {})", uid, c.metadata().name(), c.id(), cpus, e.getMessage());
            }
        }
        lastUpdate.keySet().retainAll(seen);
    }
}
