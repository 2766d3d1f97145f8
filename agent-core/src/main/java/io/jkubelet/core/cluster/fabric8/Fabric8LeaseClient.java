package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.core.nodelease.LeaseClient;

/** The lease controller's calls on fabric8's client. */
public final class Fabric8LeaseClient implements LeaseClient {
    private final KubernetesClient client;

    public Fabric8LeaseClient(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public Lease getLease(String namespace, String name) {
        return Fabric8Errors.call(() -> client.leases().inNamespace(namespace).withName(name).get());
    }

    @Override
    public Lease createLease(Lease lease) {
        return Fabric8Errors.call(() -> client.leases().inNamespace(lease.getMetadata().getNamespace()).resource(lease)
                .create());
    }

    @Override
    public Lease updateLease(Lease lease) {
        return Fabric8Errors.call(() -> client.leases().inNamespace(lease.getMetadata().getNamespace()).resource(lease)
                .update());
    }

    @Override
    public Node getNode(String name) {
        return Fabric8Errors.call(() -> client.nodes().withName(name).get());
    }
}
