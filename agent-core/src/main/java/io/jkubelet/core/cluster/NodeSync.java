package io.jkubelet.core.cluster;

import io.fabric8.kubernetes.api.model.Node;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.cm.devicemanager.DeviceCapacity;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.nodelease.LeaseClient;
import io.jkubelet.core.nodelease.NodeLeaseController;
import io.jkubelet.core.nodestatus.MachineInfo;
import io.jkubelet.core.nodestatus.NodeClient;
import io.jkubelet.core.nodestatus.NodeIdentity;
import io.jkubelet.core.nodestatus.NodePressure;
import io.jkubelet.core.nodestatus.NodeStatusSetters;
import io.jkubelet.core.nodestatus.NodeStatusUpdater;
import io.jkubelet.core.nodestatus.NodeVolumes;
import io.jkubelet.core.nodestatus.RuntimeState;
import io.jkubelet.core.nodestatus.Sleeper;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.util.DaemonThreads;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The node side of a kubelet connected to an apiserver: the runtime health check (every 5s), the node status
 * loop (registration, then a status every {@code nodeStatusUpdateFrequency}) and the node lease. Started through
 * {@link ClusterSide#startNodeSync}; {@link #node()} gives the node to admission.
 */
public final class NodeSync implements AutoCloseable {
    private final ScheduledExecutorService runtimeChecks;
    private final NodeStatusUpdater status;
    private final NodeLeaseController lease;

    private NodeSync(ScheduledExecutorService runtimeChecks, NodeStatusUpdater status, NodeLeaseController lease) {
        this.runtimeChecks = runtimeChecks;
        this.status = status;
        this.lease = lease;
    }

    /**
     * Starts the loops.
     *
     * @param plegHealth the PLEG's error, if any (Kubelet::plegHealth)
     * @param pressure the eviction manager's answers for the pressure conditions (Kubelet::nodePressure)
     * @param shutdownStatus the node shutdown manager's error while the node shuts down (Kubelet::shutdownStatus)
     * @param devicePlugins the device plugins' resources (KubeletViews::deviceCapacity)
     * @param volumes the volume manager's volumes in use, told which the Node lists (KubeletViews::nodeVolumes)
     */
    static NodeSync start(NodeClient nodes, LeaseClient leases, KubeletConfiguration config, NodeIdentity identity,
            Path rootDir, RuntimeService runtime, ImageService images, Supplier<Optional<String>> plegHealth,
            NodePressure pressure, Supplier<Optional<String>> shutdownStatus, Supplier<DeviceCapacity> devicePlugins,
            NodeVolumes volumes, EventRecorder recorder, Clock clock) {
        RuntimeState runtimeState = new RuntimeState(clock, List.of(new RuntimeState.HealthCheck("PLEG", plegHealth)),
                pressure, shutdownStatus);
        ScheduledExecutorService checks = DaemonThreads.scheduler("runtime-up");
        checks.scheduleWithFixedDelay(() -> runtimeState.check(runtime), 0,
                RuntimeState.RUNTIME_CHECK_PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        MachineInfo machine = MachineInfo.read(Path.of("/"), rootDir);
        NodeStatusSetters setters = new NodeStatusSetters(identity, () -> machine, runtime, images, config,
                runtimeState, clock, recorder, devicePlugins, volumes);
        NodeStatusUpdater status = new NodeStatusUpdater(nodes, identity, config, setters, clock, Sleeper.REAL);
        NodeLeaseController lease = new NodeLeaseController(leases, identity.nodeName(), config.nodeLeaseDurationSeconds(),
                clock, Sleeper.REAL);
        status.start();
        lease.start();
        return new NodeSync(checks, status, lease);
    }

    /**
     * Computes and posts the node's status now (upstream {@code syncNodeStatus}, as the node shutdown manager asks when
     * a shutdown begins); a failure is logged and the periodic loop carries on.
     */
    public void syncNodeStatus() {
        try {
            status.syncNodeStatus();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(NodeSync.class).warn("Unable to update node status: {}", e.getMessage());
        }
    }

    /** The node as last registered or posted (the local initial node before that). */
    public Supplier<Node> node() {
        return status;
    }

    @Override
    public void close() {
        lease.close();
        status.close();
        runtimeChecks.shutdownNow();
    }
}
