package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.config.PodCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Registers this node with the apiserver and keeps its status current (upstream {@code registerWithAPIServer}
 * and {@code syncNodeStatus}): every {@code nodeStatusUpdateFrequency} the status is computed on the node read
 * back from the apiserver and patched when it changed or when {@code nodeStatusReportFrequency} has passed since
 * the last post (the Lease is the heartbeat in between). Errors are logged and retried, never thrown out of
 * the loop. {@link #get()} gives the node as last registered or posted, or the locally computed initial node
 * before that, for admission and whoever else needs allocatable and labels.
 */
public final class NodeStatusUpdater implements Supplier<Node>, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NodeStatusUpdater.class);
    /** Upstream {@code nodeStatusUpdateRetry}. */
    public static final int NODE_STATUS_UPDATE_RETRY = 5;
    static final Duration REGISTER_INITIAL_STEP = Duration.ofMillis(100);
    static final Duration REGISTER_MAX_STEP = Duration.ofSeconds(7);
    /** wait.JitterUntil's jitter factor for the status loop. */
    static final double JITTER = 0.04;

    private final NodeClient client;
    private final NodeIdentity identity;
    private final KubeletConfiguration config;
    private final NodeStatusSetters setters;
    private final Clock clock;
    private final Sleeper sleeper;
    private volatile Node current;
    private volatile boolean registrationCompleted;
    private Instant lastStatusReportTime = Instant.EPOCH;
    private volatile Thread loop;

    public NodeStatusUpdater(NodeClient client, NodeIdentity identity, KubeletConfiguration config,
            NodeStatusSetters setters, Clock clock, Sleeper sleeper) {
        this.client = client;
        this.identity = identity;
        this.config = config;
        this.setters = setters;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /** The node as last registered or posted; the locally computed initial node before registration. */
    @Override
    public Node get() {
        Node n = current;
        if (n == null) {
            n = initialNode();
            current = n;
        }
        return n;
    }

    public boolean registrationCompleted() {
        return registrationCompleted;
    }

    /** Upstream {@code initialNode}. */
    public Node initialNode() {
        return InitialNode.build(identity, config, setters);
    }

    /** Starts the status loop on a daemon thread. */
    public void start() {
        loop = Thread.ofPlatform().daemon().name("node-status").start(this::runLoop);
    }

    private void runLoop() {
        Duration period = config.nodeStatusUpdateFrequency();
        while (!Thread.currentThread().isInterrupted()) {
            try {
                syncNodeStatus();
                long jitter = (long) (period.toMillis() * JITTER * ThreadLocalRandom.current().nextDouble());
                sleeper.sleep(period.plusMillis(jitter));
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.error("Node status sync failed: {}", e.toString());
            }
        }
    }

    /** One tick: registers first if needed (blocking until it succeeds), then updates the status. */
    public synchronized void syncNodeStatus() throws InterruptedException {
        if (!Boolean.FALSE.equals(config.registerNode())) {
            registerWithApiServer();
        }
        try {
            updateNodeStatus();
        } catch (ApiException | IllegalStateException e) {
            log.error("Unable to update node status: {}", e.getMessage());
        }
    }

    /** Tries until the node is registered: 100ms, doubling up to 7s between attempts (upstream). */
    public void registerWithApiServer() throws InterruptedException {
        Duration step = REGISTER_INITIAL_STEP;
        while (!registrationCompleted) {
            sleeper.sleep(step);
            step = step.multipliedBy(2);
            if (step.compareTo(REGISTER_MAX_STEP) >= 0) {
                step = REGISTER_MAX_STEP;
            }
            Node node;
            try {
                node = initialNode();
            } catch (RuntimeException e) {
                log.error("Unable to construct v1.Node object for kubelet: {}", e.getMessage());
                continue;
            }
            log.info("Attempting to register node {}", identity.nodeName());
            if (tryRegisterWithApiServer(node)) {
                log.info("Successfully registered node {}", identity.nodeName());
                registrationCompleted = true;
            }
        }
    }

    /**
     * One attempt (upstream {@code tryRegisterWithAPIServer}): create the node; if it exists already,
     * reconcile the attach/detach annotation, the default labels and the extended resources of the existing
     * one. Metadata goes in a merge patch of the node, the status part in one of its status.
     */
    boolean tryRegisterWithApiServer(Node node) {
        try {
            current = client.createNode(node);
            return true;
        } catch (ApiException e) {
            if (e.code() != 409) {
                log.error("Unable to register node {} with API server: {}", identity.nodeName(), e.getMessage());
                return false;
            }
        }
        Node existing;
        try {
            existing = client.getNode(identity.nodeName());
        } catch (ApiException e) {
            log.error("Unable to register node {} with API server: error getting existing node: {}",
                    identity.nodeName(), e.getMessage());
            return false;
        }
        if (existing == null) {
            log.error("Unable to register node {} with API server: no node instance returned", identity.nodeName());
            return false;
        }
        log.info("Node {} was previously registered", identity.nodeName());
        Node original = NodeStatusDiff.copy(existing, Node.class);
        ObjectNode metadata = PodCodec.mapper().createObjectNode();
        reconcileAnnotation(node, existing, metadata);
        updateDefaultLabels(node, existing, metadata);
        String statusPatch = reconcileExtendedResources(node, existing) ? NodeStatusDiff.statusPatch(original, existing) : null;
        try {
            if (!metadata.isEmpty()) {
                ObjectNode patch = PodCodec.mapper().createObjectNode();
                patch.set("metadata", metadata);
                existing = client.patchNode(identity.nodeName(), PodCodec.mapper().writeValueAsString(patch));
            }
            if (statusPatch != null) {
                existing = client.patchNodeStatus(identity.nodeName(), statusPatch);
            }
        } catch (ApiException e) {
            log.error("Unable to reconcile node {} with API server: error updating node: {}", identity.nodeName(),
                    e.getMessage());
            return false;
        }
        current = existing;
        return true;
    }

    private static void reconcileAnnotation(Node initial, Node existing, ObjectNode metadata) {
        String want = initial.getMetadata().getAnnotations() == null ? null
                : initial.getMetadata().getAnnotations().get(InitialNode.CONTROLLER_MANAGED_ATTACH_ANNOTATION);
        Map<String, String> have = existing.getMetadata().getAnnotations() == null ? Map.of()
                : existing.getMetadata().getAnnotations();
        if (!Objects.equals(want, have.get(InitialNode.CONTROLLER_MANAGED_ATTACH_ANNOTATION))) {
            log.info("Controller attach-detach setting changed to {}; updating existing Node", want != null);
            metadata.putObject("annotations").put(InitialNode.CONTROLLER_MANAGED_ATTACH_ANNOTATION, want);
        }
    }

    /** Upstream {@code updateDefaultLabels}: the default labels take the initial node's values; empty ones go. */
    private static void updateDefaultLabels(Node initial, Node existing, ObjectNode metadata) {
        Map<String, String> have = existing.getMetadata().getLabels() == null ? new HashMap<>()
                : existing.getMetadata().getLabels();
        Map<String, String> want = initial.getMetadata().getLabels();
        ObjectNode labels = PodCodec.mapper().createObjectNode();
        for (String label : InitialNode.DEFAULT_LABELS) {
            if (!want.containsKey(label)) {
                continue;
            }
            String value = want.get(label);
            if (!value.equals(have.get(label))) {
                if (value.isEmpty()) {
                    labels.putNull(label);
                } else {
                    labels.put(label, value);
                }
            }
        }
        if (!labels.isEmpty()) {
            metadata.set("labels", labels);
        }
    }

    /**
     * Upstream {@code reconcileExtendedResource}: a missing capacity or allocatable takes the initial node's,
     * and extended resources are zeroed until a device plugin reports them again (this kubelet has no device
     * manager checkpoint, the case in which upstream resets them).
     */
    private static boolean reconcileExtendedResources(Node initial, Node existing) {
        var status = NodeConditions.status(existing);
        boolean changed = false;
        if (status.getCapacity() == null || status.getCapacity().isEmpty()) {
            status.setCapacity(new HashMap<>(initial.getStatus().getCapacity()));
            changed = true;
        }
        if (status.getAllocatable() == null || status.getAllocatable().isEmpty()) {
            status.setAllocatable(new HashMap<>(initial.getStatus().getAllocatable()));
            changed = true;
        }
        for (String name : status.getCapacity().keySet()) {
            if (isExtendedResourceName(name) && !"0".equals(status.getCapacity().get(name).toString())) {
                log.info("Zero out resource {} capacity in existing node", name);
                status.getCapacity().put(name, new Quantity("0"));
                status.getAllocatable().put(name, new Quantity("0"));
                changed = true;
            }
        }
        return changed;
    }

    /** An extended resource: a prefixed name outside {@code kubernetes.io/} and not a quota {@code requests.} name. */
    static boolean isExtendedResourceName(String name) {
        return name.contains("/") && !name.contains("kubernetes.io/") && !name.startsWith("requests.");
    }

    /** Upstream {@code updateNodeStatus}: up to {@link #NODE_STATUS_UPDATE_RETRY} attempts. */
    void updateNodeStatus() {
        for (int i = 0; i < NODE_STATUS_UPDATE_RETRY; i++) {
            try {
                tryUpdateNodeStatus(i);
                return;
            } catch (ApiException | IllegalStateException e) {
                log.error("Error updating node status, will retry: {}", e.getMessage());
            }
        }
        throw new IllegalStateException("update node status exceeds retry count");
    }

    /**
     * Upstream {@code tryUpdateNodeStatus}: read the node (the first try from the apiserver's watch cache, a
     * list at resourceVersion 0, to spare etcd; retries read through), compute its status, and patch when it
     * changed or the report frequency has passed.
     */
    void tryUpdateNodeStatus(int tryNumber) {
        Node original;
        if (tryNumber == 0) {
            original = client.getNodeFromCache(identity.nodeName());
        } else {
            original = client.getNode(identity.nodeName());
        }
        if (original == null) {
            throw new IllegalStateException("error getting node \"" + identity.nodeName() + "\": nodes \""
                    + identity.nodeName() + "\" not found");
        }
        Node node = NodeStatusDiff.copy(original, Node.class);
        setters.setNodeStatus(node);
        boolean changed = NodeStatusDiff.hasChanged(original.getStatus(), node.getStatus());
        Instant now = clock.instant();
        if (!changed && now.isBefore(lastStatusReportTime.plus(config.nodeStatusReportFrequency()))) {
            current = node;
            // After a restart the volume manager starts with nothing reported, while the Node still lists what the
            // kubelet before reported: it learns it here even when the status needs no patch.
            setters.markVolumesFromNode(node);
            return;
        }
        String patch = NodeStatusDiff.statusPatch(original, node);
        Node updated = patch == null ? original : client.patchNodeStatus(identity.nodeName(), patch);
        lastStatusReportTime = clock.instant();
        current = updated;
        // The Node now lists them: the controller will not detach them, so their pods may mount them.
        setters.markVolumesFromNode(updated);
    }

    @Override
    public void close() {
        if (loop != null) {
            loop.interrupt();
        }
    }
}
