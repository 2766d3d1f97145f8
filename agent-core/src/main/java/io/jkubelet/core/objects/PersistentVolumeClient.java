package io.jkubelet.core.objects;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.jkubelet.core.apierrors.ApiException;

/**
 * The claims of the node's pods and the PersistentVolumes bound to them, read from the apiserver (what upstream's volume
 * manager asks its clientset for, a GET each time a pod's volumes are processed; the Node authorizer lets a node read
 * exactly the claims its pods name and the volumes bound to them), and a claim's status patched once its volume grew on
 * the node (the Node authorizer lets a node patch the status of its pods' claims, and NodeRestriction only its
 * {@code capacity} and {@code conditions}). Thread-safe; each call is one request, never retried.
 */
public interface PersistentVolumeClient {
    /** A node without an apiserver: every get fails saying so. */
    PersistentVolumeClient STANDALONE = new PersistentVolumeClient() {
        @Override
        public PersistentVolumeClaim getPersistentVolumeClaim(String namespace, String name) {
            throw new ApiException("no kubeClient defined", ApiException.NO_ANSWER, null, null);
        }

        @Override
        public PersistentVolume getPersistentVolume(String name) {
            throw new ApiException("no kubeClient defined", ApiException.NO_ANSWER, null, null);
        }

        @Override
        public PersistentVolumeClaim patchPersistentVolumeClaimStatus(String namespace, String name, String patch) {
            throw new ApiException("no kubeClient defined", ApiException.NO_ANSWER, null, null);
        }
    };

    /** The claim, or null when the apiserver says it does not exist. */
    PersistentVolumeClaim getPersistentVolumeClaim(String namespace, String name) throws ApiException;

    /** The PersistentVolume, or null when the apiserver says it does not exist. */
    PersistentVolume getPersistentVolume(String name) throws ApiException;

    /**
     * A JSON merge patch of the claim's {@code status} subresource (upstream's {@code PatchPVCStatus}, whose strategic
     * merge patch means the same for the fields the kubelet changes).
     *
     * @param patch the patch, with {@code metadata.resourceVersion} so that the apiserver refuses it (409) for a claim
     *     that changed since it was read
     * @return the claim the apiserver answered with
     */
    PersistentVolumeClaim patchPersistentVolumeClaimStatus(String namespace, String name, String patch)
            throws ApiException;
}
