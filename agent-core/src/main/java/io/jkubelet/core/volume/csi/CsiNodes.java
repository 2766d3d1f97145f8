package io.jkubelet.core.volume.csi;

import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.jkubelet.core.apierrors.ApiException;

/**
 * The apiserver's {@code storage.k8s.io/v1} CSINode objects, as the node info manager reads and writes them. Each
 * call is one request, never retried.
 */
public interface CsiNodes {
    /** The CSINode named {@code name}, or null when there is none. */
    CSINode get(String name) throws ApiException;

    /** Creates it (409 when it exists); returns it as stored. */
    CSINode create(CSINode csiNode) throws ApiException;

    /** Replaces it, guarded by its {@code resourceVersion} (409 when stale); returns it as stored. */
    CSINode update(CSINode csiNode) throws ApiException;
}
