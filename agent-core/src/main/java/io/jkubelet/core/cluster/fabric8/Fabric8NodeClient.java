package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.core.nodestatus.NodeClient;

/**
 * The node loop's calls on fabric8's client. The patches are sent as exactly one request each over the client's
 * HTTP client (with its authentication and rate limit): fabric8's patch DSL reads the object before patching a
 * subresource, a second request per heartbeat that upstream does not make.
 */
public final class Fabric8NodeClient implements NodeClient {
    private final KubernetesClient client;

    public Fabric8NodeClient(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public Node createNode(Node node) {
        return Fabric8Errors.call(() -> client.nodes().resource(node).create());
    }

    @Override
    public Node getNode(String name) {
        return Fabric8Errors.call(() -> client.nodes().withName(name).get());
    }

    /** fabric8's get carries no resourceVersion: a list of the one node by name does. */
    @Override
    public Node getNodeFromCache(String name) {
        NodeList list = Fabric8Errors.call(() -> client.nodes().list(new ListOptionsBuilder()
                .withFieldSelector("metadata.name=" + name).withResourceVersion("0").build()));
        return list.getItems().stream().filter(n -> name.equals(n.getMetadata().getName())).findFirst().orElse(null);
    }

    @Override
    public Node patchNode(String name, String mergePatch) {
        return ApiRequests.patch(client, "/api/v1/nodes/" + ApiRequests.encode(name), ApiRequests.MERGE_PATCH, mergePatch,
                Node.class);
    }

    @Override
    public Node patchNodeStatus(String name, String jsonPatch) {
        return ApiRequests.patch(client, "/api/v1/nodes/" + ApiRequests.encode(name) + "/status", ApiRequests.JSON_PATCH,
                jsonPatch, Node.class);
    }
}
