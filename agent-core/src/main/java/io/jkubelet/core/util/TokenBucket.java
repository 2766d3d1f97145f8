package io.jkubelet.core.util;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * client-go's token bucket ({@code flowcontrol} token bucket rate limiter): starts full with {@code burst}
 * tokens, refills {@code qps} tokens a second, never holds more than {@code burst}. Time comes from the
 * injected clock. Thread-safe.
 */
public final class TokenBucket {
    private final double qps;
    private final double burst;
    private final Clock clock;
    private double tokens;
    private Instant last;

    public TokenBucket(double qps, int burst, Clock clock) {
        if (qps <= 0 || burst < 1) {
            throw new IllegalArgumentException("token bucket needs qps > 0 and burst >= 1, got qps " + qps + ", burst " + burst);
        }
        this.qps = qps;
        this.burst = burst;
        this.clock = clock;
        this.tokens = burst;
        this.last = clock.instant();
    }

    /** Takes a token if one is there now (the passive limiter the spam filter uses). */
    public synchronized boolean tryAccept() {
        refill();
        if (tokens >= 1) {
            tokens -= 1;
            return true;
        }
        return false;
    }

    /** Takes a token, going into debt if needed; returns how long the caller must wait before using it. */
    public synchronized Duration reserve() {
        refill();
        tokens -= 1;
        return tokens >= 0 ? Duration.ZERO : Duration.ofNanos((long) Math.ceil(-tokens / qps * 1e9));
    }

    private void refill() {
        Instant now = clock.instant();
        long elapsedNanos = Duration.between(last, now).toNanos();
        if (elapsedNanos > 0) {
            tokens = Math.min(burst, tokens + elapsedNanos * qps / 1e9);
            last = now;
        }
    }
}
