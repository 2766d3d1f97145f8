package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jkubelet.core.runtimeclass.RuntimeClassLister;

import java.util.Optional;

/**
 * The cluster's RuntimeClasses ({@code node.k8s.io/v1}), listed and watched by fabric8's informer (upstream's
 * RuntimeClass informer, which its runtimeclass manager starts with the kubelet). Started at once; a RuntimeClass is
 * found from the first list on, and one made, changed or deleted later as soon as the watch delivers it.
 */
public final class Fabric8RuntimeClassLister implements RuntimeClassLister, AutoCloseable {
    private final SharedIndexInformer<RuntimeClass> informer;

    public Fabric8RuntimeClassLister(KubernetesClient client) {
        // inform() would wait for the first list; the kubelet goes on starting, as upstream's does.
        this.informer = client.runtimeClasses().runnableInformer(0);
        informer.start();
    }

    @Override
    public Optional<RuntimeClass> get(String name) {
        // A cluster-scoped object's key in the informer's store is its name.
        return Optional.ofNullable(informer.getStore().getByKey(name));
    }

    @Override
    public void close() {
        informer.close();
    }
}
