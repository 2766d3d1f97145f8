package io.jkubelet.core.pod;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.apierrors.ApiException;

/**
 * What the mirror client asks of the apiserver (upstream's {@code basicMirrorClient} on its clientset and node
 * getter). Each call is one request, never retried.
 */
public interface MirrorPodClient extends PodDeleter {
    /** The node, or null when it is not registered (yet). */
    Node getNode(String name) throws ApiException;

    /** Creates the pod in its namespace (409 when one of that name exists); returns it as stored. */
    Pod createPod(Pod pod) throws ApiException;

    /** The pod, or null when there is none. */
    Pod getPod(String namespace, String name) throws ApiException;
}
