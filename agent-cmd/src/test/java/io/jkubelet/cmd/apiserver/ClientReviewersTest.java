package io.jkubelet.cmd.apiserver;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.jkubelet.server.auth.RequestAttributes;
import io.jkubelet.server.auth.UserInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The TokenReview and SubjectAccessReview requests as a (scripted) apiserver receives and answers them. */
public class ClientReviewersTest {
    static final String TOKEN_REVIEWS = "/apis/authentication.k8s.io/v1/tokenreviews";
    static final String ACCESS_REVIEWS = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

    private KubernetesMockServer server;
    private KubernetesClient client;
    private final List<TokenReview> tokenReviews = new CopyOnWriteArrayList<>();
    private final List<SubjectAccessReview> accessReviews = new CopyOnWriteArrayList<>();
    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();
    private final WebhookRetry retry = new WebhookRetry(sleeps::add);

    @BeforeEach
    void start() {
        server = new KubernetesMockServer(false);
        server.init();
        client = server.createClient(b -> b.editOrNewConfig().withRequestRetryBackoffLimit(0).endConfig());
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    /**
     * An apiserver that knows the tokens {@code alice-token} and {@code bob-token} (users alice and bob, group
     * dev) and allows alice, nobody else.
     */
    public static void serveReviews(KubernetesMockServer server, KubernetesClient client, List<TokenReview> tokenReviews,
            List<SubjectAccessReview> accessReviews) {
        server.expect().post().withPath(TOKEN_REVIEWS).andReply(201, req -> {
            TokenReview r = client.getKubernetesSerialization().unmarshal(req.getUtf8Body(), TokenReview.class);
            tokenReviews.add(r);
            String token = r.getSpec().getToken();
            boolean known = "alice-token".equals(token) || "bob-token".equals(token);
            return new TokenReviewBuilder(r).withNewStatus().withAuthenticated(known)
                    .withNewUser().withUsername(known ? token.substring(0, token.indexOf('-')) : null).withGroups(known ? List.of("dev") : null).endUser()
                    .endStatus().build();
        }).always();
        server.expect().post().withPath(ACCESS_REVIEWS).andReply(201, req -> {
            SubjectAccessReview r = client.getKubernetesSerialization().unmarshal(req.getUtf8Body(), SubjectAccessReview.class);
            accessReviews.add(r);
            boolean allowed = "alice".equals(r.getSpec().getUser());
            return new SubjectAccessReviewBuilder(r).withNewStatus().withAllowed(allowed)
                    .withReason(allowed ? "RBAC: allowed" : "").endStatus().build();
        }).always();
    }

    private static RequestAttributes attrs(String user, String verb, String subresource) {
        return new RequestAttributes(new UserInfo(user, List.of("dev", UserInfo.AUTHENTICATED)), verb, "nodes", subresource,
                "node-a", "v1", "/stats/summary");
    }

    @Test
    void knownTokenIsItsUserUnknownTokenIsNobody() throws Exception {
        serveReviews(server, client, tokenReviews, accessReviews);
        ClientTokenReviewer reviewer = new ClientTokenReviewer(client, retry);

        assertThat(reviewer.review("alice-token")).contains(new UserInfo("alice", List.of("dev")));
        assertThat(reviewer.review("stolen-token")).isEmpty();
        assertThat(tokenReviews).extracting(r -> r.getSpec().getToken()).containsExactly("alice-token", "stolen-token");
        assertThat(tokenReviews.get(0).getApiVersion()).isEqualTo("authentication.k8s.io/v1");
        assertThat(tokenReviews.get(0).getKind()).isEqualTo("TokenReview");
    }

    @Test
    void accessReviewCarriesTheKubeletsAttributes() throws Exception {
        serveReviews(server, client, tokenReviews, accessReviews);
        ClientSubjectAccessReviewer reviewer = new ClientSubjectAccessReviewer(client, retry);

        assertThat(reviewer.allowed(attrs("alice", "get", "stats"))).isTrue();
        assertThat(reviewer.allowed(attrs("bob", "create", "proxy"))).isFalse();

        SubjectAccessReview sent = accessReviews.get(0);
        assertThat(sent.getApiVersion()).isEqualTo("authorization.k8s.io/v1");
        assertThat(sent.getSpec().getUser()).isEqualTo("alice");
        assertThat(sent.getSpec().getGroups()).containsExactly("dev", "system:authenticated");
        var ra = sent.getSpec().getResourceAttributes();
        assertThat(List.of(ra.getVerb(), ra.getVersion(), ra.getResource(), ra.getSubresource(), ra.getName()))
                .containsExactly("get", "v1", "nodes", "stats", "node-a");
        assertThat(ra.getNamespace()).isNullOrEmpty();
        assertThat(ra.getGroup()).isNullOrEmpty();
        assertThat(accessReviews.get(1).getSpec().getResourceAttributes().getVerb()).isEqualTo("create");
    }

    @Test
    void internalErrorsAreRetriedWithBackoffOtherErrorsAreNot() throws Exception {
        server.expect().post().withPath(TOKEN_REVIEWS).andReturn(500, "{\"kind\":\"Status\",\"code\":500,\"reason\":\"InternalError\"}").times(2);
        server.expect().post().withPath(ACCESS_REVIEWS).andReturn(403, "{\"kind\":\"Status\",\"code\":403,\"reason\":\"Forbidden\"}").once();
        serveReviews(server, client, tokenReviews, accessReviews);
        assertThat(new ClientTokenReviewer(client, retry).review("alice-token")).isPresent();
        assertThat(sleeps).hasSize(2);
        assertThat(sleeps.get(0)).isBetween(Duration.ofMillis(500), Duration.ofMillis(600));
        assertThat(sleeps.get(1)).isBetween(Duration.ofMillis(750), Duration.ofMillis(900));

        sleeps.clear();
        assertThatThrownBy(() -> new ClientSubjectAccessReviewer(client, retry).allowed(attrs("alice", "get", "proxy")))
                .hasMessageContaining("403");
        assertThat(sleeps).isEmpty();
    }

    @Test
    void reviewErrorAndContradictoryAnswerFailTheReview() {
        server.expect().post().withPath(TOKEN_REVIEWS).andReturn(201, new TokenReviewBuilder().withNewStatus()
                .withAuthenticated(false).withError("token issuer unreachable").endStatus().build()).once();
        assertThatThrownBy(() -> new ClientTokenReviewer(client, retry).review("t")).hasMessage("token issuer unreachable");
        server.expect().post().withPath(ACCESS_REVIEWS).andReturn(201, new SubjectAccessReviewBuilder().withNewStatus()
                .withAllowed(true).withDenied(true).endStatus().build()).once();
        assertThatThrownBy(() -> new ClientSubjectAccessReviewer(client, retry).allowed(attrs("alice", "get", "proxy")))
                .hasMessage("webhook subject access review returned both allow and deny response");
    }

    @Test
    void optionalClientGivesReviewersOnlyWhenConnected() {
        assertThat(Optional.<KubernetesClient>empty().map(ClientTokenReviewer::new)).isEmpty();
    }
}
