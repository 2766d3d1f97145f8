package io.jkubelet.cmd.apiserver;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.core.objects.ApiObjectManagers;
import io.jkubelet.core.objects.PodObjects;

import java.time.Clock;
import java.util.Optional;

/**
 * Where pods' ConfigMaps, Secrets, service account tokens and Services come from: the apiserver when the node has a
 * {@code --kubeconfig}, else nothing (configMap and secret volumes and env references fail with a message saying
 * the node has no apiserver).
 */
public final class PodObjectsWiring {
    private PodObjectsWiring() {}

    /** @param closeables gets the Service informer, to be closed with the agent */
    public static PodObjects create(Optional<KubernetesClient> kubeClient, Clock clock, java.util.List<AutoCloseable> closeables) {
        return kubeClient.map(c -> {
            io.jkubelet.core.objects.ServiceInformer services = new io.jkubelet.core.objects.ServiceInformer(c);
            closeables.add(services);
            return ApiObjectManagers.podObjects(c, clock, services);
        }).orElseGet(PodObjects::standalone);
    }
}
