package io.jkubelet.core.pod;

import io.jkubelet.core.apierrors.ApiException;

/**
 * The delete the kubelet makes of every pod it did not just read: with its UID as precondition (upstream
 * {@code DeleteOptions.Preconditions.UID}), so that a pod re-created under the same name is never deleted by mistake.
 */
public interface PodDeleter {

    /** Outcome of a delete: done, already gone, or the UID no longer matches (another pod of that name). */
    enum DeleteResult { DELETED, NOT_FOUND, CONFLICT }

    /**
     * Deletes {@code namespace/name} with {@code gracePeriodSeconds}, only if its UID is still {@code uid}.
     *
     * @throws ApiException on any other answer or when the apiserver cannot be reached
     */
    DeleteResult deletePod(String namespace, String name, String uid, long gracePeriodSeconds) throws ApiException;
}
