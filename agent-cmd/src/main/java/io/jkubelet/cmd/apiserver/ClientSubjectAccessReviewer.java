package io.jkubelet.cmd.apiserver;

import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.server.auth.RequestAttributes;
import io.jkubelet.server.auth.SubjectAccessReviewer;

/**
 * {@code authorization.mode: Webhook} through the apiserver (upstream's webhook authorizer over
 * {@code client.AuthorizationV1().SubjectAccessReviews()}): an {@code authorization.k8s.io/v1}
 * SubjectAccessReview of the user and groups with the kubelet's resource attributes (verb, version v1,
 * resource {@code nodes}, the subresource, the node's name; no namespace, the core group). Allowed when
 * {@code status.allowed}; a review that both allows and denies is an error, as upstream. Caching is the
 * caller's ({@link io.jkubelet.server.auth.WebhookAuthorizer}).
 */
public final class ClientSubjectAccessReviewer implements SubjectAccessReviewer {
    private final KubernetesClient client;
    private final WebhookRetry retry;

    public ClientSubjectAccessReviewer(KubernetesClient client) {
        this(client, WebhookRetry.standard());
    }

    ClientSubjectAccessReviewer(KubernetesClient client, WebhookRetry retry) {
        this.client = client;
        this.retry = retry;
    }

    @Override
    public boolean allowed(RequestAttributes a) throws Exception {
        SubjectAccessReview request = new SubjectAccessReviewBuilder().withNewSpec()
                .withUser(a.user().name()).withGroups(a.user().groups())
                .withNewResourceAttributes().withVerb(a.verb()).withVersion(a.apiVersion()).withResource(a.resource())
                .withSubresource(a.subresource()).withName(a.name()).endResourceAttributes()
                .endSpec().build();
        SubjectAccessReview answer = retry.call(() -> client.authorization().v1().subjectAccessReview().create(request));
        SubjectAccessReviewStatus status = answer == null ? null : answer.getStatus();
        if (status == null) {
            return false;
        }
        boolean allowed = Boolean.TRUE.equals(status.getAllowed());
        boolean denied = Boolean.TRUE.equals(status.getDenied());
        if (allowed && denied) {
            throw new IllegalStateException("webhook subject access review returned both allow and deny response");
        }
        return allowed;
    }
}
