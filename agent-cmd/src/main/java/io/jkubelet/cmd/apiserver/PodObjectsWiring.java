package io.jkubelet.cmd.apiserver;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.core.objects.ApiObjectManagers;
import io.jkubelet.core.objects.PodObjects;

import java.time.Clock;
import java.util.Optional;

/**
 * Where pods' ConfigMaps, Secrets and service account tokens come from: the apiserver when the node has a
 * {@code --kubeconfig}, else nothing (configMap and secret volumes and env references fail with a message saying
 * the node has no apiserver).
 */
public final class PodObjectsWiring {
    private PodObjectsWiring() {}

    public static PodObjects create(Optional<KubernetesClient> kubeClient, Clock clock) {
        return kubeClient.map(c -> ApiObjectManagers.podObjects(c, clock)).orElseGet(PodObjects::standalone);
    }
}
