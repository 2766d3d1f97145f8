package io.jkubelet.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.server.http.Request;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Token and access reviews are cached as configured, with an injected clock. */
class WebhookCachesTest {

    private static Request request(String method, String path, Map<String, List<String>> headers) {
        return new Request(method, path, "", Map.of(), headers, new byte[0], Map.of(), null);
    }

    @Test
    void tokenReviewsAreCachedForTheTtlAndRejectedTokensAreErrors() throws Exception {
        FakeClock clock = new FakeClock(Instant.parse("2026-12-03T10:00:00Z"));
        AtomicInteger reviews = new AtomicInteger();
        TokenWebhookAuthenticator authn = new TokenWebhookAuthenticator(token -> {
            reviews.incrementAndGet();
            return token.equals("good") ? Optional.of(new UserInfo("system:serviceaccount:kube-system:metrics", List.of()))
                    : Optional.empty();
        }, Duration.ofMinutes(2), clock);
        Request good = request("GET", "/pods", Map.of("authorization", List.of("Bearer good")));
        assertThat(authn.authenticate(good, List.of())).get().extracting(UserInfo::name)
                .isEqualTo("system:serviceaccount:kube-system:metrics");
        authn.authenticate(good, List.of());
        assertThat(reviews.get()).isEqualTo(1);
        clock.advance(Duration.ofMinutes(2));
        authn.authenticate(good, List.of());
        assertThat(reviews.get()).isEqualTo(2);

        assertThatThrownBy(() -> authn.authenticate(request("GET", "/pods", Map.of("authorization", List.of("Bearer bad"))), List.of()))
                .isInstanceOf(AuthenticationException.class);
        assertThat(authn.authenticate(request("GET", "/pods", Map.of()), List.of())).isEmpty();
        assertThat(authn.authenticate(request("GET", "/pods", Map.of("authorization", List.of("Basic abc"))), List.of())).isEmpty();
    }

    @Test
    void accessReviewsAreCachedByAnswerWithTheirOwnTtls() throws Exception {
        FakeClock clock = new FakeClock(Instant.parse("2026-12-03T10:00:00Z"));
        AtomicInteger reviews = new AtomicInteger();
        WebhookAuthorizer authz = new WebhookAuthorizer(attrs -> {
            reviews.incrementAndGet();
            return attrs.subresource().equals("stats");
        }, Duration.ofMinutes(5), Duration.ofSeconds(30), clock);
        UserInfo user = new UserInfo("scraper", List.of());
        RequestAttributes stats = RequestAttributes.of(user, request("GET", "/stats/summary", Map.of()), "node");
        RequestAttributes exec = RequestAttributes.of(user, request("POST", "/exec/ns/p/c", Map.of()), "node");
        assertThat(authz.authorize(stats)).isEqualTo(Authorizer.Decision.ALLOW);
        assertThat(authz.authorize(exec)).isEqualTo(Authorizer.Decision.NO_OPINION);
        assertThat(reviews.get()).isEqualTo(2);
        clock.advance(Duration.ofSeconds(31));
        authz.authorize(stats);
        authz.authorize(exec);
        assertThat(reviews.get()).isEqualTo(3);
        clock.advance(Duration.ofMinutes(5));
        authz.authorize(stats);
        assertThat(reviews.get()).isEqualTo(4);
    }

    @Test
    void attributesFollowUpstreamsPathAndMethodRules() {
        assertThat(RequestAttributes.subresource("/stats")).isEqualTo("stats");
        assertThat(RequestAttributes.subresource("/stats/summary")).isEqualTo("stats");
        assertThat(RequestAttributes.subresource("/statsfoo")).isEqualTo("proxy");
        assertThat(RequestAttributes.subresource("/metrics/resource")).isEqualTo("metrics");
        assertThat(RequestAttributes.subresource("/logs/")).isEqualTo("log");
        assertThat(RequestAttributes.subresource("/checkpoint/ns/p/c")).isEqualTo("checkpoint");
        assertThat(RequestAttributes.subresource("/containerLogs/ns/p/c")).isEqualTo("proxy");
        assertThat(RequestAttributes.subresource("/dashboard/")).isEqualTo("stats");
        assertThat(RequestAttributes.subresource("/dashboard/api/node")).isEqualTo("stats");
        assertThat(RequestAttributes.subresource("/dashboardx")).isEqualTo("proxy");
        assertThat(RequestAttributes.verb("PATCH")).isEqualTo("patch");
        assertThat(RequestAttributes.verb("DELETE")).isEqualTo("delete");
        assertThat(RequestAttributes.verb("HEAD")).isEmpty();
    }
}
