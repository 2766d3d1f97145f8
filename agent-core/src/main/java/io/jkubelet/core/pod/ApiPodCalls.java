package io.jkubelet.core.pod;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.jkubelet.core.util.ApiRequests;

/**
 * The pod calls whose options fabric8's DSL does not carry: a delete with a UID precondition, which the kubelet
 * uses for every delete of a pod it did not just read (upstream {@code DeleteOptions.Preconditions.UID}), so that a
 * pod re-created under the same name is never deleted by mistake.
 */
public final class ApiPodCalls {
    private final KubernetesClient client;

    public ApiPodCalls(KubernetesClient client) {
        this.client = client;
    }

    /** Outcome of a delete: done, already gone, or the UID no longer matches (another pod of that name). */
    public enum DeleteResult { DELETED, NOT_FOUND, CONFLICT }

    /**
     * Deletes {@code namespace/name} with {@code gracePeriodSeconds}, only if its UID is still {@code uid}.
     *
     * @throws KubernetesClientException on any other answer or when the apiserver cannot be reached
     */
    public DeleteResult deletePod(String namespace, String name, String uid, long gracePeriodSeconds) {
        String body = "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"gracePeriodSeconds\":" + gracePeriodSeconds
                + ",\"preconditions\":{\"uid\":\"" + uid + "\"}}";
        HttpResponse<String> response = ApiRequests.send(client, "DELETE", "/api/v1/namespaces/"
                + ApiRequests.encode(namespace) + "/pods/" + ApiRequests.encode(name), "application/json", body);
        return switch (response.code()) {
            case 200, 202 -> DeleteResult.DELETED;
            case 404 -> DeleteResult.NOT_FOUND;
            case 409 -> DeleteResult.CONFLICT;
            default -> throw new KubernetesClientException("deleting pod " + namespace + "/" + name + ": HTTP "
                    + response.code() + ": " + response.body(), response.code(), null);
        };
    }
}
