package io.jkubelet.server.auth;

/**
 * The apiserver's SubjectAccessReview API as the webhook authorizer needs it; implemented over the
 * Kubernetes client where the kubelet has one.
 */
@FunctionalInterface
public interface SubjectAccessReviewer {

    /**
     * @return whether the apiserver allows {@code attributes}
     * @throws Exception when the review cannot be made (the request then gets 500)
     */
    boolean allowed(RequestAttributes attributes) throws Exception;
}
