package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jkubelet.core.objects.ServiceLister;

import java.util.List;

/**
 * Services of every namespace, listed and watched from the apiserver by fabric8's informer (upstream's
 * {@code serviceLister}, which the Node authorizer lets every node read). Started at once, as upstream starts it
 * when the kubelet is made.
 */
public final class Fabric8ServiceLister implements ServiceLister, AutoCloseable {
    private final SharedIndexInformer<Service> informer;

    public Fabric8ServiceLister(KubernetesClient client) {
        // inform() would wait for the first list; the kubelet goes on starting and containers wait (hasSynced).
        this.informer = client.services().inAnyNamespace().runnableInformer(0);
        informer.start();
    }

    @Override
    public boolean hasSynced() {
        return informer.hasSynced();
    }

    @Override
    public List<Service> list() {
        return informer.getStore().list();
    }

    @Override
    public void close() {
        informer.close();
    }
}
