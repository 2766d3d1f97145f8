package io.jkubelet.core.nodeshutdown;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.admission.PodAdmitResult;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.nodestatus.Sleeper;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.status.PodConditions;
import io.jkubelet.core.status.PodPhases;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Graceful node shutdown (upstream nodeshutdown {@code managerImpl}). At start it makes sure logind lets a delay lock
 * hold the shutdown back for the whole grace period (writing logind's drop-in and reloading it when it does not), takes
 * the lock and watches {@code PrepareForShutdown}. When a shutdown begins the node reports it (Ready false with "node
 * is shutting down", a {@code NodeShutdown} event), new pods are refused, and the active pods are killed group by
 * group, lowest priority first, each with its group's grace period (or its own when shorter) and marked
 * {@code Failed}/{@code Terminated}; a group is waited for no longer than its grace period. Then the lock is released
 * and logind goes on. A cancelled shutdown takes the lock again.
 *
 * <p>Without a system bus or logind nothing of this runs: {@link #start} fails and the kubelet says so once. Events are
 * handled one at a time on the manager's own thread; the other methods are thread-safe.
 */
public final class NodeShutdownManager {
    private static final Logger log = LoggerFactory.getLogger(NodeShutdownManager.class);

    static final String NODE_SHUTDOWN_REASON = "Terminated";
    static final String NODE_SHUTDOWN_MESSAGE = "Pod was terminated in response to imminent node shutdown.";
    static final String NODE_SHUTDOWN_NOT_ADMITTED_REASON = "NodeShutdown";
    static final String NODE_SHUTDOWN_NOT_ADMITTED_MESSAGE = "Pod was rejected as the node is shutting down.";
    /** The node's Ready condition carries this while the node shuts down (upstream {@code ShutdownStatus}'s error). */
    public static final String SHUTTING_DOWN = "node is shutting down";
    /** The reason of the node's events about a shutdown (upstream {@code kubeletevents.NodeShutdown}). */
    static final String NODE_SHUTDOWN_EVENT = "NodeShutdown";
    /** How long the manager waits before it connects again to a bus that went away (upstream {@code dbusReconnectPeriod}). */
    static final Duration DBUS_RECONNECT_PERIOD = Duration.ofSeconds(1);
    /** The DisruptionTarget condition's reason (PodDisruptionConditions, on in 1.30). */
    static final String TERMINATION_BY_KUBELET = "TerminationByKubelet";

    /** What the manager needs of the kubelet's pods. */
    public interface Pods {
        /** The pods that are neither terminated nor finished (upstream {@code GetActivePods}). */
        List<Pod> active();

        /** Kills the pod with this grace period, its status first going through {@code statusFn}; returns once it stopped. */
        void kill(Pod pod, long gracePeriodSeconds, Consumer<PodStatus> statusFn) throws Exception;
    }

    /** Waits for a group's kills, at most for its grace period (upstream's timer on the group). */
    @FunctionalInterface
    public interface GroupTimer {
        /** @return false when the budget ran out first */
        boolean await(CompletableFuture<Void> kills, Duration budget) throws InterruptedException;

        GroupTimer REAL = (kills, budget) -> {
            try {
                kills.get(budget.toMillis(), TimeUnit.MILLISECONDS);
                return true;
            } catch (TimeoutException e) {
                return false;
            } catch (ExecutionException e) {
                return true; // each kill logs its own failure
            }
        };
    }

    private final List<ShutdownGracePeriod> periods;
    private final Pods pods;
    private final EventRecorder recorder;
    private final String nodeName;
    private final Runnable syncNodeStatus;
    private final ExecutorService events;
    private final ExecutorService kills;
    private final GroupTimer timer;
    private final Sleeper sleeper;
    private final GracefulShutdownRecord record;
    private volatile Inhibitor.Connector systemBus;

    private volatile boolean nodeShuttingDownNow;
    // Guarded by this: the connection and the lock taken through it.
    private Inhibitor inhibitor;
    private Inhibitor.InhibitLock inhibitLock;

    /**
     * @param periods the priority ranges, lowest first ({@link ShutdownGracePeriods#of})
     * @param syncNodeStatus posts the node's status at once (upstream {@code syncNodeStatus})
     * @param events the manager's own thread for logind's signals
     * @param kills where pods are killed, one task per pod of a group at once
     * @param sleeper how the manager waits before it connects again after the bus went away
     * @param record where the last shutdown's start and end are kept and reported
     */
    public NodeShutdownManager(List<ShutdownGracePeriod> periods, Pods pods, EventRecorder recorder, String nodeName,
            Runnable syncNodeStatus, ExecutorService events, ExecutorService kills, GroupTimer timer, Sleeper sleeper,
            GracefulShutdownRecord record) {
        this.periods = List.copyOf(periods);
        this.pods = pods;
        this.recorder = recorder;
        this.nodeName = nodeName;
        this.syncNodeStatus = syncNodeStatus;
        this.events = events;
        this.kills = kills;
        this.timer = timer;
        this.sleeper = sleeper;
        this.record = record;
    }

    /**
     * Upstream {@code start}: connects, lets logind's {@code InhibitDelayMaxSec} cover the whole grace period, takes the
     * lock and watches for shutdowns.
     *
     * @throws IOException when there is no system bus, no logind, or logind's delay stays shorter than asked; the
     *     message says which
     */
    public synchronized void start(Inhibitor.Connector systemBus) throws IOException {
        this.systemBus = systemBus;
        watch();
        record.restore();
        log.info("Node shutdown manager started: an inhibitor lock holds the node's shutdown back for up to {}s ({})",
                ShutdownGracePeriods.periodRequested(periods).toSeconds(), periods);
    }

    /** Connects, checks logind's delay, takes the lock and watches; a connection that ends is made again. */
    private synchronized void watch() throws IOException {
        Inhibitor bus = systemBus.connect();
        Inhibitor previous = inhibitor;
        if (previous != null) {
            previous.close();
        }
        try {
            Duration requested = ShutdownGracePeriods.periodRequested(periods);
            Duration current = bus.currentInhibitDelay();
            if (requested.compareTo(current) > 0) {
                try {
                    bus.overrideInhibitDelay(requested);
                } catch (IOException e) {
                    throw new IOException("unable to override inhibit delay by shutdown manager: " + e.getMessage(), e);
                }
                bus.reloadLogindConf();
                Duration updated = bus.currentInhibitDelay();
                if (requested.compareTo(updated) > 0) {
                    throw new IOException(("node shutdown manager was unable to update logind InhibitDelayMaxSec to %s"
                            + " (ShutdownGracePeriod), current value of InhibitDelayMaxSec (%s) is less than requested"
                            + " ShutdownGracePeriod").formatted(goSeconds(requested), goSeconds(updated)));
                }
            }
            this.inhibitor = bus;
            acquireInhibitLock();
            try {
                bus.monitorShutdown(shuttingDown -> events.execute(() -> onShutdownEvent(shuttingDown)),
                        () -> events.execute(this::watchAgain));
            } catch (IOException e) {
                release();
                throw new IOException("failed to monitor shutdown: " + e.getMessage(), e);
            }
        } catch (IOException | RuntimeException e) {
            bus.close();
            throw e;
        }
    }

    /**
     * Upstream's watch loop: when the bus connection ends (dbus or logind restarted), connect and take the lock again,
     * once a second until it works or the kubelet stops.
     */
    private void watchAgain() {
        log.error("Ended to watching the node for shutdown events");
        while (!Thread.currentThread().isInterrupted()) {
            try {
                sleeper.sleep(DBUS_RECONNECT_PERIOD);
                log.info("Restarting watch for node shutdown events");
                watch();
                return;
            } catch (IOException e) {
                log.error("Unable to watch the node for shutdown events: {}", e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Go prints whole-second durations as {@code 30s}. */
    private static String goSeconds(Duration d) {
        return d.toSeconds() + "s";
    }

    /** Upstream {@code Admit}: every pod is refused while the node shuts down. */
    public PodAdmitResult admit(Pod pod) {
        if (!nodeShuttingDownNow) {
            return PodAdmitResult.ADMIT;
        }
        return PodAdmitResult.reject(NODE_SHUTDOWN_NOT_ADMITTED_REASON, NODE_SHUTDOWN_NOT_ADMITTED_MESSAGE);
    }

    /** Upstream {@code ShutdownStatus}: the Ready condition's error while the node shuts down. */
    public Optional<String> shutdownStatus() {
        return nodeShuttingDownNow ? Optional.of(SHUTTING_DOWN) : Optional.empty();
    }

    /** One {@code PrepareForShutdown} signal, on the manager's thread. */
    void onShutdownEvent(boolean shuttingDown) {
        log.info("Shutdown manager detected new shutdown event: {}", shuttingDown ? "shutdown" : "cancelled");
        recorder.event(References.node(nodeName), EventRecorder.NORMAL, NODE_SHUTDOWN_EVENT, shuttingDown
                ? "Shutdown manager detected shutdown event" : "Shutdown manager detected shutdown cancellation");
        nodeShuttingDownNow = shuttingDown;
        if (!shuttingDown) {
            try {
                acquireInhibitLock();
            } catch (IOException e) {
                log.error("Shutdown manager could not take the inhibitor lock again: {}", e.getMessage());
            }
            return;
        }
        Thread.ofVirtual().name("node-status-on-shutdown").start(syncNodeStatus);
        record.started();
        try {
            processShutdownEvent();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            record.ended();
            release();
            log.info("Shutdown manager completed processing shutdown event, node will shutdown shortly");
        }
    }

    /** Upstream {@code processShutdownEvent}: the groups in turn, lowest priority first. */
    private void processShutdownEvent() throws InterruptedException {
        for (PodShutdownGroup group : ShutdownGracePeriods.groupByPriority(periods, pods.active())) {
            // A range without pods is not waited for.
            if (group.pods().isEmpty()) {
                continue;
            }
            List<CompletableFuture<Void>> killed = new ArrayList<>();
            for (Pod pod : group.pods()) {
                killed.add(CompletableFuture.runAsync(() -> killPod(pod, group.period()), kills));
            }
            Duration budget = Duration.ofSeconds(group.period().shutdownGracePeriodSeconds());
            if (!timer.await(CompletableFuture.allOf(killed.toArray(CompletableFuture[]::new)), budget)) {
                log.info("Shutdown manager pod killing time out: gracePeriod {}, priority {}",
                        group.period().shutdownGracePeriodSeconds(), group.period().priority());
            }
        }
    }

    private void killPod(Pod pod, ShutdownGracePeriod period) {
        long grace = gracePeriodOverride(pod, period);
        log.info("Shutdown manager killing pod {} with gracePeriod {}", PodSpecs.format(pod), grace);
        try {
            pods.kill(pod, grace, NodeShutdownManager::terminated);
            log.info("Shutdown manager finished killing pod {}", PodSpecs.format(pod));
        } catch (Exception e) {
            log.info("Shutdown manager failed killing pod {}: {}", PodSpecs.format(pod), e.getMessage());
        }
    }

    /** The group's grace period, or the pod's own {@code terminationGracePeriodSeconds} when that is not longer. */
    static long gracePeriodOverride(Pod pod, ShutdownGracePeriod period) {
        Long own = pod.getSpec() == null ? null : pod.getSpec().getTerminationGracePeriodSeconds();
        return own != null && own <= period.shutdownGracePeriodSeconds() ? own : period.shutdownGracePeriodSeconds();
    }

    /** A pod killed for the shutdown: Failed (unless it already succeeded), Terminated, and disrupted by the kubelet. */
    static void terminated(PodStatus status) {
        if (!PodPhases.SUCCEEDED.equals(status.getPhase())) {
            status.setPhase(PodPhases.FAILED);
        }
        status.setReason(NODE_SHUTDOWN_REASON);
        status.setMessage(NODE_SHUTDOWN_MESSAGE);
        PodConditions.setDisruptionTarget(status, TERMINATION_BY_KUBELET, NODE_SHUTDOWN_MESSAGE);
    }

    /** Upstream {@code acquireInhibitLock}: a new lock first, then the old one (if any) released. */
    private synchronized void acquireInhibitLock() throws IOException {
        Inhibitor.InhibitLock lock = inhibitor.inhibitShutdown();
        Inhibitor.InhibitLock old = inhibitLock;
        inhibitLock = lock;
        if (old != null) {
            releaseQuietly(old);
        }
    }

    private synchronized void release() {
        Inhibitor.InhibitLock lock = inhibitLock;
        inhibitLock = null;
        if (lock != null) {
            releaseQuietly(lock);
        }
    }

    private static void releaseQuietly(Inhibitor.InhibitLock lock) {
        try {
            lock.release();
        } catch (IOException e) {
            log.error("Shutdown manager could not release the inhibitor lock: {}", e.getMessage());
        }
    }

    /** Stops watching and releases a lock still held: a kubelet that stops holds no shutdown back. */
    public synchronized void stop() {
        events.shutdownNow();
        kills.shutdownNow();
        release();
        Inhibitor bus = inhibitor;
        if (bus != null) {
            bus.close();
        }
    }
}
