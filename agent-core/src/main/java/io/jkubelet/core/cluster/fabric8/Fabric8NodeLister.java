package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.util.Optional;

/**
 * This node's Node object as the apiserver has it, listed and watched by fabric8's informer with the field selector
 * {@code metadata.name=<node>} (upstream's {@code nodeLister}, which admission and the downward API read): labels
 * and taints others put on the node reach admission at once, not at the node status loop's next post. Started at
 * once; empty until the first list has the node (before registration, or while the apiserver is away).
 */
public final class Fabric8NodeLister implements AutoCloseable {
    private final SharedIndexInformer<Node> informer;

    public Fabric8NodeLister(KubernetesClient client, String nodeName) {
        // inform() would wait for the first list; the kubelet goes on starting meanwhile.
        this.informer = client.nodes().withField("metadata.name", nodeName).runnableInformer(0);
        informer.start();
    }

    /** The node as last listed or watched, if the apiserver has it. */
    public Optional<Node> node() {
        return informer.getStore().list().stream().findFirst();
    }

    @Override
    public void close() {
        informer.close();
    }
}
