package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jkubelet.core.objects.ObjectWatch;
import java.util.concurrent.CompletionStage;

/** One object watched by fabric8's informer on a single resource (a list and a watch by {@code metadata.name}). */
final class Fabric8ObjectWatch<T extends HasMetadata> implements ObjectWatch<T> {
    private final SharedIndexInformer<T> informer;
    private final CompletionStage<Void> synced;

    Fabric8ObjectWatch(SharedIndexInformer<T> informer) {
        this.informer = informer;
        this.synced = informer.start();
    }

    @Override
    public CompletionStage<Void> synced() {
        return synced;
    }

    @Override
    public T current() {
        return informer.getStore().list().stream().findFirst().orElse(null);
    }

    @Override
    public void close() {
        informer.close();
    }
}
