package io.jkubelet.core.status;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.pod.PodDeleter;

/**
 * What the status writer asks of the apiserver (upstream's status manager on its {@code PodsGetter}): read a pod,
 * patch its {@code status} subresource, delete it once it is fully terminated. Each call is one request, never
 * retried.
 */
public interface PodStatusClient extends PodDeleter {
    /** The pod, or null when there is none. */
    Pod getPod(String namespace, String name) throws ApiException;

    /** Applies a JSON patch (RFC 6902) to the pod's {@code status} subresource. */
    void patchPodStatus(String namespace, String name, String jsonPatch) throws ApiException;
}
