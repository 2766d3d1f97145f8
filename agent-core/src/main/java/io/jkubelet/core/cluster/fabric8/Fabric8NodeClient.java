package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.nodestatus.NodeClient;

/**
 * The node loop's calls on fabric8's client. The patches are sent as exactly one request each over the client's
 * HTTP client (with its authentication and rate limit): fabric8's patch DSL reads the object before patching a
 * subresource, a second request per heartbeat that upstream does not make.
 */
public final class Fabric8NodeClient implements NodeClient {
    private static final String MERGE_PATCH = "application/merge-patch+json";
    private static final String JSON_PATCH = "application/json-patch+json";

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
        return patch("/api/v1/nodes/" + ApiRequests.encode(name), MERGE_PATCH, mergePatch);
    }

    @Override
    public Node patchNodeStatus(String name, String jsonPatch) {
        return patch("/api/v1/nodes/" + ApiRequests.encode(name) + "/status", JSON_PATCH, jsonPatch);
    }

    private Node patch(String path, String contentType, String patch) {
        HttpResponse<String> response = ApiRequests.send(client, "PATCH", path, contentType, patch);
        String body = response.body();
        if (response.code() / 100 != 2) {
            Status status = null;
            try {
                status = client.getKubernetesSerialization().unmarshal(body, Status.class);
            } catch (RuntimeException e) {
                // not a Status: the raw body goes into the message
            }
            String message = status != null && status.getMessage() != null ? status.getMessage() : body;
            throw new ApiException("PATCH " + path + " failed with " + response.code() + ": " + message,
                    response.code(), status, null);
        }
        return client.getKubernetesSerialization().unmarshal(body, Node.class);
    }
}
