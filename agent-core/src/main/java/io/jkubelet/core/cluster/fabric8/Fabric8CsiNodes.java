package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.core.volume.csi.CsiNodes;

/** The node's CSINode on fabric8's client ({@code storage.k8s.io/v1}). */
public final class Fabric8CsiNodes implements CsiNodes {
    private final KubernetesClient client;

    public Fabric8CsiNodes(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public CSINode get(String name) {
        return Fabric8Errors.call(() -> client.storage().v1().csiNodes().withName(name).get());
    }

    @Override
    public CSINode create(CSINode csiNode) {
        return Fabric8Errors.call(() -> client.storage().v1().csiNodes().resource(csiNode).create());
    }

    /** fabric8's update sends the object's resourceVersion: a stale one is refused with 409, as upstream's Update. */
    @Override
    public CSINode update(CSINode csiNode) {
        return Fabric8Errors.call(() -> client.storage().v1().csiNodes().resource(csiNode).update());
    }
}
