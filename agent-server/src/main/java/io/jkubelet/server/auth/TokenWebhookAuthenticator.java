package io.jkubelet.server.auth;

import io.jkubelet.server.http.Request;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bearer tokens ({@code Authorization: Bearer <token>}) checked through the apiserver's TokenReview
 * ({@code authentication.webhook}), answers cached for {@code cacheTTL} (2 m by default) so that a busy
 * scraper does not cost a review per request. Failed reviews are not cached, as upstream.
 */
public final class TokenWebhookAuthenticator implements Authenticator {

    /** Bounds the cache: entries beyond it are dropped oldest-first on the next insert. */
    static final int MAX_CACHED = 4096;

    private record Cached(Optional<UserInfo> user, Instant expires) {}

    private final TokenReviewer reviewer;
    private final Duration cacheTTL;
    private final Clock clock;
    private final ConcurrentHashMap<String, Cached> cache = new ConcurrentHashMap<>();

    public TokenWebhookAuthenticator(TokenReviewer reviewer, Duration cacheTTL, Clock clock) {
        this.reviewer = reviewer;
        this.cacheTTL = cacheTTL;
        this.clock = clock;
    }

    @Override
    public Optional<UserInfo> authenticate(Request request, List<X509Certificate> peerCertificates) throws AuthenticationException {
        String header = request.header("Authorization");
        if (header == null) {
            return Optional.empty();
        }
        String[] parts = header.trim().split(" ");
        if (parts.length < 2 || !parts[0].equalsIgnoreCase("bearer")) {
            return Optional.empty();
        }
        String token = parts[1];
        if (token.isEmpty()) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        Cached hit = cache.get(token);
        if (hit != null && now.isBefore(hit.expires())) {
            return checked(hit.user());
        }
        Optional<UserInfo> user;
        try {
            user = reviewer.review(token);
        } catch (Exception e) {
            throw new AuthenticationException("token review failed: " + e.getMessage(), e);
        }
        if (!cacheTTL.isZero()) {
            if (cache.size() >= MAX_CACHED) {
                cache.entrySet().removeIf(e -> !now.isBefore(e.getValue().expires()));
                if (cache.size() >= MAX_CACHED) {
                    cache.clear();
                }
            }
            cache.put(token, new Cached(user, now.plus(cacheTTL)));
        }
        return checked(user);
    }

    private static Optional<UserInfo> checked(Optional<UserInfo> user) throws AuthenticationException {
        if (user.isEmpty()) {
            // A token the apiserver does not accept is an invalid credential, not an absent one.
            throw new AuthenticationException("invalid bearer token");
        }
        return user;
    }
}
