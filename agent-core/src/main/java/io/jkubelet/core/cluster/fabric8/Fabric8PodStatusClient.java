package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.core.status.PodStatusClient;

/** The status writer's calls on fabric8's client; the status patch is exactly one request. */
public final class Fabric8PodStatusClient implements PodStatusClient {
    private final KubernetesClient client;
    private final Fabric8PodDeleter deleter;

    public Fabric8PodStatusClient(KubernetesClient client) {
        this.client = client;
        this.deleter = new Fabric8PodDeleter(client);
    }

    @Override
    public Pod getPod(String namespace, String name) {
        return Fabric8Errors.call(() -> client.pods().inNamespace(namespace).withName(name).get());
    }

    @Override
    public void patchPodStatus(String namespace, String name, String jsonPatch) {
        // One request, as upstream's status manager makes: fabric8's patch DSL reads the pod before patching its
        // status subresource.
        ApiRequests.patch(client, "/api/v1/namespaces/" + ApiRequests.encode(namespace) + "/pods/"
                + ApiRequests.encode(name) + "/status", ApiRequests.JSON_PATCH, jsonPatch, Pod.class);
    }

    @Override
    public DeleteResult deletePod(String namespace, String name, String uid, long gracePeriodSeconds) {
        return deleter.deletePod(namespace, name, uid, gracePeriodSeconds);
    }
}
