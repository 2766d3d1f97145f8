package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.jkubelet.core.status.PodStatusClient;

/** The status writer's calls on fabric8's client. */
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
        Fabric8Errors.call(() -> client.pods().inNamespace(namespace).withName(name).subresource("status")
                .patch(PatchContext.of(PatchType.JSON), jsonPatch));
    }

    @Override
    public DeleteResult deletePod(String namespace, String name, String uid, long gracePeriodSeconds) {
        return deleter.deletePod(namespace, name, uid, gracePeriodSeconds);
    }
}
