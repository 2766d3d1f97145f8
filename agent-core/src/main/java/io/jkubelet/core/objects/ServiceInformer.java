package io.jkubelet.core.objects;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.util.List;

/**
 * Services of every namespace, listed and watched from the apiserver (upstream's {@code serviceLister}, which
 * the Node authorizer lets every node read). Started at once, as upstream starts it when the kubelet is made.
 */
public final class ServiceInformer implements ServiceLister, AutoCloseable {
    private final SharedIndexInformer<Service> informer;

    public ServiceInformer(KubernetesClient client) {
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
