package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.api.model.Node;
import io.jkubelet.core.apierrors.ApiException;

/**
 * What node registration and the node status loop ask of the apiserver (upstream's {@code heartbeatClient} and
 * {@code kubeClient} on Nodes). Each call is one request, never retried; the patches go as they are given.
 */
public interface NodeClient {
    /** Creates the node (409 when it exists); returns it as stored. */
    Node createNode(Node node) throws ApiException;

    /** The node read through to etcd, or null when it does not exist. */
    Node getNode(String name) throws ApiException;

    /**
     * The node as the apiserver's watch cache has it (upstream {@code FromApiserverCache}: resourceVersion 0), which
     * spares etcd and may lag behind; null when it does not exist.
     */
    Node getNodeFromCache(String name) throws ApiException;

    /** A JSON merge patch (RFC 7386) of the node; returns it as stored. */
    Node patchNode(String name, String mergePatch) throws ApiException;

    /** A JSON patch (RFC 6902) of the node's {@code status} subresource; returns it as stored. */
    Node patchNodeStatus(String name, String jsonPatch) throws ApiException;
}
