package io.jkubelet.cmd.apiserver;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.server.auth.TokenReviewer;
import io.jkubelet.server.auth.UserInfo;

import java.util.List;
import java.util.Optional;

/**
 * {@code authentication.webhook} through the apiserver (upstream's webhook token authenticator over
 * {@code client.AuthenticationV1().TokenReviews()}): a {@code authentication.k8s.io/v1} TokenReview is
 * created for the bearer token, without audiences as the kubelet sends it; the token's user is the
 * review's {@code status.user} when {@code status.authenticated}. Caching is the caller's
 * ({@link io.jkubelet.server.auth.TokenWebhookAuthenticator}, {@code cacheTTL}).
 */
public final class ClientTokenReviewer implements TokenReviewer {
    private final KubernetesClient client;
    private final WebhookRetry retry;

    public ClientTokenReviewer(KubernetesClient client) {
        this(client, WebhookRetry.standard());
    }

    ClientTokenReviewer(KubernetesClient client, WebhookRetry retry) {
        this.client = client;
        this.retry = retry;
    }

    @Override
    public Optional<UserInfo> review(String token) throws Exception {
        TokenReview request = new TokenReviewBuilder().withNewSpec().withToken(token).endSpec().build();
        TokenReview answer = retry.call(() -> client.authentication().v1().tokenReviews().create(request));
        TokenReviewStatus status = answer == null ? null : answer.getStatus();
        if (status == null || !Boolean.TRUE.equals(status.getAuthenticated())) {
            if (status != null && status.getError() != null && !status.getError().isEmpty()) {
                // The apiserver could not decide: a failed review (401 and a log line naming the error).
                throw new IllegalStateException(status.getError());
            }
            return Optional.empty();
        }
        var user = status.getUser();
        String name = user == null || user.getUsername() == null ? "" : user.getUsername();
        List<String> groups = user == null || user.getGroups() == null ? List.of() : user.getGroups();
        return Optional.of(new UserInfo(name, groups));
    }
}
