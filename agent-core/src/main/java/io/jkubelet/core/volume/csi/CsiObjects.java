package io.jkubelet.core.volume.csi;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.jkubelet.core.apierrors.ApiException;

/**
 * The apiserver objects the CSI volume plugin reads (what upstream's plugin asks its kube client and listers for; the
 * Node authorizer lets a node read every CSIDriver, the VolumeAttachments of its volumes and the secrets its pods'
 * volumes name). Thread-safe; each get is one request, never retried.
 */
public interface CsiObjects {
    /** The {@code storage.k8s.io/v1} CSIDriver named as the driver, or null when there is none. */
    CSIDriver getCsiDriver(String name) throws ApiException;

    /** The {@code storage.k8s.io/v1} VolumeAttachment, or null when there is none. */
    VolumeAttachment getVolumeAttachment(String name) throws ApiException;

    /** The Secret, or null when there is none. */
    Secret getSecret(String namespace, String name) throws ApiException;
}
