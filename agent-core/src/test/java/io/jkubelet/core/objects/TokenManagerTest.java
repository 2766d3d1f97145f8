package io.jkubelet.core.objects;

import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestSpec;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestStatus;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenManagerTest {
    private final FakeClock clock = new FakeClock();
    private final AtomicInteger requests = new AtomicInteger();
    private volatile boolean failing;

    private final TokenManager tokens = new TokenManager((ns, sa, tr) -> {
        if (failing) {
            throw new ObjectException("connection refused", false);
        }
        long ttl = tr.getSpec().getExpirationSeconds();
        TokenRequest answer = new TokenRequest();
        TokenRequestSpec spec = new TokenRequestSpec();
        spec.setExpirationSeconds(ttl);
        answer.setSpec(spec);
        TokenRequestStatus st = new TokenRequestStatus();
        st.setToken("token-" + requests.incrementAndGet());
        st.setExpirationTimestamp(clock.instant().plusSeconds(ttl).toString());
        answer.setStatus(st);
        return answer;
    }, clock);

    private String get(long ttl) throws ObjectException {
        return tokens.getServiceAccountToken("ns", "sa", List.of("api"), ttl, "p", "uid-p");
    }

    @Test
    void aLongLivedTokenIsRefreshedAfterADay() throws Exception {
        long week = 7 * 24 * 3600;
        assertThat(get(week)).isEqualTo("token-1");
        clock.advance(Duration.ofHours(24));
        assertThat(get(week)).isEqualTo("token-1");
        clock.advance(Duration.ofSeconds(1));
        assertThat(get(week)).isEqualTo("token-2");
    }

    @Test
    void eachPodAndAudienceHasItsOwnTokenAndAGonePodsTokensAreForgotten() throws Exception {
        assertThat(get(3600)).isEqualTo("token-1");
        assertThat(tokens.getServiceAccountToken("ns", "sa", List.of("other"), 3600, "p", "uid-p")).isEqualTo("token-2");
        assertThat(tokens.getServiceAccountToken("ns", "sa", List.of("api"), 3600, "q", "uid-q")).isEqualTo("token-3");
        tokens.deletePodTokens("uid-p");
        assertThat(get(3600)).isEqualTo("token-4");
    }

    @Test
    void aFailedRefreshKeepsTheCurrentTokenUntilItExpires() throws Exception {
        assertThat(get(3600)).isEqualTo("token-1");
        failing = true;
        clock.advance(Duration.ofSeconds(3000));
        assertThat(get(3600)).isEqualTo("token-1");
        clock.advance(Duration.ofSeconds(600));
        assertThatThrownBy(() -> get(3600)).isInstanceOf(ObjectException.class)
                .hasMessage("token ns/sa expired and refresh failed: connection refused");
    }
}
