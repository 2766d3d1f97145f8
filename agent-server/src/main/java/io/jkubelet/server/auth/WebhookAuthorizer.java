package io.jkubelet.server.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code authorization.mode: Webhook}: asks the apiserver through SubjectAccessReview, caching allowed
 * answers for {@code cacheAuthorizedTTL} (5 m) and denied ones for {@code cacheUnauthorizedTTL} (30 s).
 * Errors are not cached. A denial is {@link Decision#NO_OPINION}, as upstream's webhook answers when
 * the review does not allow, which the kubelet's filter turns into 403.
 */
public final class WebhookAuthorizer implements Authorizer {

    static final int MAX_CACHED = 4096;

    /** The cache key: the user and what it asks (the path is not part of the review). */
    private record Key(String user, List<String> groups, String verb, String subresource) {}

    private record Cached(boolean allowed, Instant expires) {}

    private final SubjectAccessReviewer reviewer;
    private final Duration authorizedTTL;
    private final Duration unauthorizedTTL;
    private final Clock clock;
    private final ConcurrentHashMap<Key, Cached> cache = new ConcurrentHashMap<>();

    public WebhookAuthorizer(SubjectAccessReviewer reviewer, Duration authorizedTTL, Duration unauthorizedTTL, Clock clock) {
        this.reviewer = reviewer;
        this.authorizedTTL = authorizedTTL;
        this.unauthorizedTTL = unauthorizedTTL;
        this.clock = clock;
    }

    @Override
    public Decision authorize(RequestAttributes attributes) throws Exception {
        Key key = new Key(attributes.user().name(), attributes.user().groups(), attributes.verb(), attributes.subresource());
        Instant now = clock.instant();
        Cached hit = cache.get(key);
        if (hit != null && now.isBefore(hit.expires())) {
            return hit.allowed() ? Decision.ALLOW : Decision.NO_OPINION;
        }
        boolean allowed = reviewer.allowed(attributes);
        Duration ttl = allowed ? authorizedTTL : unauthorizedTTL;
        if (!ttl.isZero()) {
            if (cache.size() >= MAX_CACHED) {
                cache.entrySet().removeIf(e -> !now.isBefore(e.getValue().expires()));
                if (cache.size() >= MAX_CACHED) {
                    cache.clear();
                }
            }
            cache.put(key, new Cached(allowed, now.plus(ttl)));
        }
        return allowed ? Decision.ALLOW : Decision.NO_OPINION;
    }
}
