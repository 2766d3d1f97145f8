package io.jkubelet.core.volume.csi;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.nodestatus.NodeClient;
import io.jkubelet.core.nodestatus.Sleeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Records in the cluster what each registered CSI driver said of this node (upstream {@code nodeinfomanager}): its
 * node ID in the Node's {@code csi.volume.kubernetes.io/nodeid} annotation, its topology segments as the Node's labels,
 * and an entry in the node's {@code storage.k8s.io/v1} CSINode (made, owned by the Node, when there is none), which
 * the scheduler and the external provisioner and attacher read. Each write reads the object first and is tried 4
 * times (upstream's {@code updateBackoff}: 10 ms, then 5 times longer). Thread-safe: Node updates are serialised, as
 * upstream's lock does.
 *
 * <p>On a standalone node (no apiserver) every call fails as upstream's does without a kube client ("error getting kube
 * client"): the CSI plugin then refuses the driver.
 */
public final class NodeInfoManager {
    private static final Logger log = LoggerFactory.getLogger(NodeInfoManager.class);
    /** Upstream {@code updateBackoff}: steps, first wait and factor (its 10 % jitter is left out). */
    static final int UPDATE_STEPS = 4;
    static final Duration UPDATE_FIRST_WAIT = Duration.ofMillis(10);
    static final int UPDATE_FACTOR = 5;

    private final String nodeName;
    /** Null on a standalone node, as upstream's kube client. */
    private final NodeClient nodes;
    private final CsiNodes csiNodes;
    private final Sleeper sleeper;
    private final Object nodeLock = new Object();

    private NodeInfoManager(String nodeName, NodeClient nodes, CsiNodes csiNodes, Sleeper sleeper) {
        this.nodeName = nodeName;
        this.nodes = nodes;
        this.csiNodes = csiNodes;
        this.sleeper = sleeper;
    }

    /** Writes through the apiserver; {@code sleeper} waits between attempts. */
    public static NodeInfoManager connected(String nodeName, NodeClient nodes, CsiNodes csiNodes, Sleeper sleeper) {
        return new NodeInfoManager(nodeName, nodes, csiNodes, sleeper);
    }

    /** A node without an apiserver: says so once (upstream csi plugin's {@code Init}); every call fails. */
    public static NodeInfoManager standalone(String nodeName) {
        log.warn("{}: kubeclient not set, assuming standalone kubelet", CsiRegistrationHandler.CSI_PLUGIN_NAME);
        return new NodeInfoManager(nodeName, null, null, d -> {});
    }

    /**
     * Upstream {@code InstallCSIDriver}: the node ID annotation and topology labels on the Node, then the driver in the
     * CSINode. Idempotent: what is already there is not written again.
     *
     * @throws Exception upstream's message ({@code error updating Node object with CSI driver node info: ...} or
     *     {@code error updating CSINode object with CSI driver node info: ...})
     */
    public void installCsiDriver(String driverName, String nodeId, long maxAttachLimit, Map<String, String> topology)
            throws Exception {
        if (nodeId.isEmpty()) {
            throw new Exception("error adding CSI driver node info: driverNodeID must not be empty");
        }
        try {
            updateNode(List.of(NodeUpdates.updateNodeIdInNode(driverName, nodeId),
                    NodeUpdates.updateTopologyLabels(topology)));
        } catch (Exception e) {
            throw new Exception("error updating Node object with CSI driver node info: " + e.getMessage(), e);
        }
        try {
            updateCsiNode(driverName, nodeId, maxAttachLimit, topology);
        } catch (Exception e) {
            throw new Exception("error updating CSINode object with CSI driver node info: " + e.getMessage(), e);
        }
    }

    /**
     * Upstream {@code UninstallCSIDriver}: the driver out of the CSINode, then its node ID (and a legacy volume limit)
     * off the Node. The topology labels stay, as upstream's.
     */
    public void uninstallCsiDriver(String driverName) throws Exception {
        try {
            if (csiNodes == null) {
                throw new Exception("error getting CSI client");
            }
            withBackoff("CSINode", () -> tryUninstallDriverFromCsiNode(driverName));
        } catch (Exception e) {
            throw new Exception("error uninstalling CSI driver from CSINode object " + e.getMessage(), e);
        }
        try {
            updateNode(List.of(NodeUpdates.removeMaxAttachLimit(driverName), NodeUpdates.removeNodeIdFromNode(driverName)));
        } catch (Exception e) {
            throw new Exception("error removing CSI driver node info from Node object " + e.getMessage(), e);
        }
    }

    private void updateNode(List<NodeUpdates.NodeUpdate> updates) throws Exception {
        withBackoff("node", () -> tryUpdateNode(updates));
    }

    /** Upstream {@code tryUpdateNode}: the node read afresh, changed, and patched when anything changed. */
    private void tryUpdateNode(List<NodeUpdates.NodeUpdate> updates) throws Exception {
        synchronized (nodeLock) {
            if (nodes == null) {
                throw new Exception("error getting kube client");
            }
            Node original = getNode();
            Node node = NodeUpdates.copy(original);
            boolean changed = false;
            for (var update : updates) {
                changed |= update.apply(node);
            }
            if (!changed) {
                return;
            }
            // Upstream sends one strategic merge patch to the status subresource; here the labels and annotations go
            // as a merge patch of the node and a legacy limit's removal as a JSON patch of its status.
            String metadata = NodeUpdates.metadataMergePatch(original, node);
            if (metadata != null) {
                nodes.patchNode(nodeName, metadata);
            }
            String status = NodeUpdates.statusRemovalPatch(original, node);
            if (status != null) {
                nodes.patchNodeStatus(nodeName, status);
            }
        }
    }

    private void updateCsiNode(String driverName, String nodeId, long maxAttachLimit, Map<String, String> topology)
            throws Exception {
        if (csiNodes == null) {
            throw new Exception("error getting CSI client");
        }
        withBackoff("CSINode", () -> {
            CSINode csiNode = csiNodes.get(nodeName);
            if (csiNode == null) {
                csiNode = createCsiNode();
            }
            if (CsiNodeSpecs.installDriver(csiNode, driverName, nodeId, maxAttachLimit, topology)) {
                csiNodes.update(csiNode);
            }
        });
    }

    /** Upstream {@code CreateCSINode}. */
    private CSINode createCsiNode() throws Exception {
        return csiNodes.create(CsiNodeSpecs.newCsiNode(getNode()));
    }

    private void tryUninstallDriverFromCsiNode(String driverName) {
        CSINode csiNode = csiNodes.get(nodeName);
        if (csiNode != null && CsiNodeSpecs.uninstallDriver(csiNode, driverName)) {
            csiNodes.update(csiNode);
        }
    }

    private Node getNode() throws Exception {
        Node node = nodes.getNode(nodeName);
        if (node == null) {
            throw new Exception("nodes \"" + nodeName + "\" not found");
        }
        return node;
    }

    private interface Attempt {
        void run() throws Exception;
    }

    /**
     * Upstream's {@code wait.ExponentialBackoff} of {@code updateBackoff} with its errors aggregated:
     * {@code error updating <what>: timed out waiting for the condition; caused by: <errors>}.
     */
    private void withBackoff(String what, Attempt attempt) throws Exception {
        Set<String> errors = new LinkedHashSet<>();
        Duration wait = UPDATE_FIRST_WAIT;
        for (int step = 1; step <= UPDATE_STEPS; step++) {
            try {
                attempt.run();
                return;
            } catch (ApiException e) {
                errors.add(e.status().map(s -> s.getMessage()).filter(m -> m != null && !m.isEmpty())
                        .orElse(e.getMessage()));
            } catch (Exception e) {
                errors.add(e.getMessage());
            }
            if (step < UPDATE_STEPS) {
                sleeper.sleep(wait);
                wait = wait.multipliedBy(UPDATE_FACTOR);
            }
        }
        // apimachinery's aggregate: each message once; brackets only around more than one.
        String caused = errors.size() == 1 ? errors.iterator().next() : "[" + String.join(", ", errors) + "]";
        throw new Exception("error updating " + what + ": timed out waiting for the condition; caused by: " + caused);
    }
}
