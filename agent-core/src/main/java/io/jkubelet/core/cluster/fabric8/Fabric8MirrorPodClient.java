package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.core.pod.MirrorPodClient;

/** The mirror client's calls on fabric8's client. */
public final class Fabric8MirrorPodClient implements MirrorPodClient {
    private final KubernetesClient client;
    private final Fabric8PodDeleter deleter;

    public Fabric8MirrorPodClient(KubernetesClient client) {
        this.client = client;
        this.deleter = new Fabric8PodDeleter(client);
    }

    @Override
    public Node getNode(String name) {
        return Fabric8Errors.call(() -> client.nodes().withName(name).get());
    }

    @Override
    public Pod createPod(Pod pod) {
        return Fabric8Errors.call(() -> client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create());
    }

    @Override
    public Pod getPod(String namespace, String name) {
        return Fabric8Errors.call(() -> client.pods().inNamespace(namespace).withName(name).get());
    }

    @Override
    public DeleteResult deletePod(String namespace, String name, String uid, long gracePeriodSeconds) {
        return deleter.deletePod(namespace, name, uid, gracePeriodSeconds);
    }
}
