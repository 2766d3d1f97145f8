package io.jkubelet.core.objects;

import io.fabric8.kubernetes.api.model.authentication.BoundObjectReference;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Service account tokens for projected {@code serviceAccountToken} volumes (upstream {@code token.Manager}): one
 * TokenRequest per (service account, audiences, expiration, pod), bound to the pod, cached and requested again when
 * it is older than 80% of its TTL or than 24 hours ({@code requiresRefresh}). Upstream adds up to 10 s of random
 * jitter to both limits to spread the requests of many pods; here the limits are exact so that rotation is
 * predictable (one node's pods are few). A failed refresh keeps serving the cached token until it expires.
 * Thread-safe.
 */
public final class TokenManager {
    private static final Logger log = LoggerFactory.getLogger(TokenManager.class);
    /** Upstream {@code maxTTL}: a token is refreshed at least daily, however long it is valid. */
    static final Duration MAX_TTL = Duration.ofHours(24);

    private record Key(String namespace, String serviceAccount, List<String> audiences, Long expirationSeconds,
                       String podUid) {}

    private final TokenRequester requester;
    private final Clock clock;
    private final Map<Key, TokenRequest> cache = new ConcurrentHashMap<>();

    public TokenManager(TokenRequester requester, Clock clock) {
        this.requester = requester;
        this.clock = clock;
    }

    /**
     * A token of {@code serviceAccount} for the pod, bound to it.
     *
     * @param audiences empty for the apiserver's default audience
     * @param expirationSeconds the requested validity (the apiserver may shorten or lengthen it)
     */
    public String getServiceAccountToken(String namespace, String serviceAccount, List<String> audiences,
                                         long expirationSeconds, String podName, String podUid) throws ObjectException {
        Key key = new Key(namespace, serviceAccount, List.copyOf(audiences), expirationSeconds, podUid);
        TokenRequest cached = cache.get(key);
        if (cached != null && !requiresRefresh(cached)) {
            return cached.getStatus().getToken();
        }
        TokenRequest tr = new TokenRequest();
        TokenRequestSpec spec = new TokenRequestSpec();
        spec.setAudiences(List.copyOf(audiences));
        spec.setExpirationSeconds(expirationSeconds);
        BoundObjectReference ref = new BoundObjectReference();
        ref.setApiVersion("v1");
        ref.setKind("Pod");
        ref.setName(podName);
        ref.setUid(podUid);
        spec.setBoundObjectRef(ref);
        tr.setSpec(spec);
        TokenRequest answer;
        try {
            answer = requester.request(namespace, serviceAccount, tr);
            if (answer == null || answer.getStatus() == null || answer.getStatus().getToken() == null) {
                throw new ObjectException("failed to fetch token: the apiserver's TokenRequest has no token", false);
            }
            expiration(answer);
        } catch (ObjectException | DateTimeParseException e) {
            if (cached != null && clock.instant().isBefore(expiration(cached))) {
                log.warn("Couldn't update token {}/{} of pod {}: {}; keeping the current one until it expires",
                        namespace, serviceAccount, podName, e.getMessage());
                return cached.getStatus().getToken();
            }
            String msg = "failed to fetch token: " + e.getMessage();
            throw new ObjectException(cached == null ? msg : "token " + namespace + "/" + serviceAccount
                    + " expired and refresh failed: " + e.getMessage(), false);
        }
        if (answer.getSpec() == null || answer.getSpec().getExpirationSeconds() == null) {
            // requiresRefresh needs the granted TTL; assume the requested one.
            TokenRequestSpec s = answer.getSpec() == null ? new TokenRequestSpec() : answer.getSpec();
            s.setExpirationSeconds(expirationSeconds);
            answer.setSpec(s);
        }
        cache.put(key, answer);
        return answer.getStatus().getToken();
    }

    /** Forgets the tokens of a pod that is gone (upstream {@code DeleteServiceAccountToken}). */
    public void deletePodTokens(String podUid) {
        cache.keySet().removeIf(k -> k.podUid().equals(podUid));
    }

    /** Older than 24 h, or within 20% of its TTL of the expiration. */
    boolean requiresRefresh(TokenRequest tr) {
        Instant now = clock.instant();
        Instant exp = expiration(tr);
        long ttl = tr.getSpec().getExpirationSeconds();
        Instant issuedAt = exp.minusSeconds(ttl);
        if (now.isAfter(issuedAt.plus(MAX_TTL))) {
            return true;
        }
        return now.isAfter(exp.minusSeconds(ttl * 20 / 100));
    }

    private static Instant expiration(TokenRequest tr) {
        String ts = tr.getStatus().getExpirationTimestamp();
        if (ts == null) {
            throw new DateTimeParseException("the TokenRequest has no expirationTimestamp", "", 0);
        }
        return Instant.parse(ts);
    }
}
