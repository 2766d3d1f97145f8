package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.metrics.KubeletMetrics;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.nodeshutdown.GracefulShutdownRecord;
import io.jkubelet.core.nodeshutdown.Inhibitor;
import io.jkubelet.core.nodeshutdown.NodeShutdownManager;
import io.jkubelet.core.nodeshutdown.ShutdownGracePeriod;
import io.jkubelet.core.nodestatus.Sleeper;
import io.jkubelet.core.util.StopSequence;

import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The kubelet's node shutdown manager (upstream {@code nodeshutdown.NewManager}, then {@code Start}), built on the
 * kubelet's pods and kill path once it is started; until then, and where it could not start, nothing is refused and the
 * node is never shutting down. Thread-safe.
 */
final class NodeShutdown {
    private final Supplier<List<Pod>> activePods;
    private final EvictablePods killable;
    private final EventRecorder recorder;
    private final String nodeName;
    /** Made when the manager is made: the gauges are registered only then, as upstream registers them with the gate. */
    private final Supplier<GracefulShutdownRecord> record;
    private volatile NodeShutdownManager manager;

    NodeShutdown(Supplier<List<Pod>> activePods, EvictablePods killable, EventRecorder recorder, String nodeName,
            Supplier<GracefulShutdownRecord> record) {
        this.activePods = activePods;
        this.killable = killable;
        this.recorder = recorder;
        this.nodeName = nodeName;
        this.record = record;
    }

    /**
     * Where the last shutdown's times are kept: upstream keeps them (a file and gauges) only with
     * {@code GracefulNodeShutdownBasedOnPodPriority}.
     */
    static GracefulShutdownRecord record(KubeletSettings settings, KubeletMetrics metrics, Clock clock) {
        if (!settings.featureGates().enabled(FeatureGates.GRACEFUL_NODE_SHUTDOWN_BASED_ON_POD_PRIORITY)) {
            return GracefulShutdownRecord.NONE;
        }
        return new GracefulShutdownRecord(settings.rootDir().resolve(GracefulShutdownRecord.STATE_FILE), clock,
                metrics.registerGracefulShutdown());
    }

    /** @see Kubelet#startNodeShutdownManager */
    Optional<String> start(List<ShutdownGracePeriod> periods, Inhibitor.Connector systemBus, Runnable syncNodeStatus,
            StopSequence running) {
        if (periods.isEmpty()) {
            return Optional.empty();
        }
        NodeShutdownManager m = new NodeShutdownManager(periods, new NodeShutdownManager.Pods() {
            @Override
            public List<Pod> active() {
                return activePods.get();
            }

            @Override
            public void kill(Pod pod, long gracePeriodSeconds, Consumer<PodStatus> statusFn) throws Exception {
                killable.kill(pod, gracePeriodSeconds, statusFn);
            }
        }, recorder, nodeName, syncNodeStatus,
                Executors.newSingleThreadExecutor(Thread.ofPlatform().name("node-shutdown").daemon().factory()),
                Executors.newVirtualThreadPerTaskExecutor(), NodeShutdownManager.GroupTimer.REAL, Sleeper.REAL,
                record.get());
        try {
            m.start(systemBus);
        } catch (IOException e) {
            m.stop();
            return Optional.of(e.getMessage());
        }
        manager = m;
        running.add("node-shutdown-manager", within -> m.stop());
        return Optional.empty();
    }

    /** The admit handler: refuses every pod while the node shuts down. */
    PodAdmitResult admit(Pod pod) {
        NodeShutdownManager m = manager;
        return m == null ? PodAdmitResult.ADMIT : m.admit(pod);
    }

    /** "node is shutting down" while it does. */
    Optional<String> status() {
        NodeShutdownManager m = manager;
        return m == null ? Optional.empty() : m.shutdownStatus();
    }
}
