package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.pod.PodDeleter;

/**
 * The delete with a UID precondition as one request over fabric8's HTTP client: fabric8's DSL does not carry the
 * precondition.
 */
public final class Fabric8PodDeleter implements PodDeleter {
    private final KubernetesClient client;

    public Fabric8PodDeleter(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public DeleteResult deletePod(String namespace, String name, String uid, long gracePeriodSeconds) {
        String body = "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"gracePeriodSeconds\":" + gracePeriodSeconds
                + ",\"preconditions\":{\"uid\":\"" + uid + "\"}}";
        HttpResponse<String> response = ApiRequests.send(client, "DELETE", "/api/v1/namespaces/"
                + ApiRequests.encode(namespace) + "/pods/" + ApiRequests.encode(name), "application/json", body);
        return switch (response.code()) {
            case 200, 202 -> DeleteResult.DELETED;
            case 404 -> DeleteResult.NOT_FOUND;
            case 409 -> DeleteResult.CONFLICT;
            default -> throw new ApiException("deleting pod " + namespace + "/" + name + ": HTTP "
                    + response.code() + ": " + response.body(), response.code(), null, null);
        };
    }
}
