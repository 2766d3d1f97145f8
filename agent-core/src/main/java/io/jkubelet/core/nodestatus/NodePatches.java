package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.jkubelet.core.util.ApiRequests;


/**
 * A JSON merge patch of a Node and a JSON patch of its {@code status} subresource, sent as exactly one request each over
 * the client's HTTP client (with its authentication and rate limit). fabric8's patch DSL reads the object
 * before patching a subresource, a second request per heartbeat that upstream does not make.
 */
final class NodePatches {
    static final String MERGE_PATCH = "application/merge-patch+json";
    static final String JSON_PATCH = "application/json-patch+json";

    private NodePatches() {
    }

    static Node patchNode(KubernetesClient client, String name, String patch) {
        return send(client, "/api/v1/nodes/" + ApiRequests.encode(name), patch);
    }

    /** A JSON patch (RFC 6902) of the node's status subresource. */
    static Node patchNodeStatus(KubernetesClient client, String name, String jsonPatch) {
        return send(client, "/api/v1/nodes/" + ApiRequests.encode(name) + "/status", JSON_PATCH, jsonPatch);
    }

    private static Node send(KubernetesClient client, String path, String patch) {
        return send(client, path, MERGE_PATCH, patch);
    }

    private static Node send(KubernetesClient client, String path, String contentType, String patch) {
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
            throw new KubernetesClientException("PATCH " + path + " failed with " + response.code() + ": " + message,
                    response.code(), status);
        }
        return client.getKubernetesSerialization().unmarshal(body, Node.class);
    }
}
