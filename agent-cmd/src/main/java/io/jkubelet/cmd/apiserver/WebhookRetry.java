package io.jkubelet.cmd.apiserver;

import io.fabric8.kubernetes.client.KubernetesClientException;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The retry of the authentication and authorization webhooks (upstream {@code DefaultAuthWebhookRetryBackoff}
 * with {@code DefaultShouldRetry}): up to 5 tries, 500 ms apart growing ×1.5 with 20 % jitter, and only for
 * answers that say "try again": 500 (internal error), 504 (timeout), 429 (too many requests) and a reset
 * connection. Anything else fails the review at once.
 */
final class WebhookRetry {
    static final int STEPS = 5;
    static final Duration INITIAL = Duration.ofMillis(500);
    static final double FACTOR = 1.5;
    static final double JITTER = 0.2;

    /** Pauses between tries; tests replace it. */
    interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    private final Sleeper sleeper;

    WebhookRetry(Sleeper sleeper) {
        this.sleeper = sleeper;
    }

    static WebhookRetry standard() {
        return new WebhookRetry(d -> Thread.sleep(d));
    }

    <T> T call(Callable<T> review) throws Exception {
        double delayNanos = INITIAL.toNanos();
        for (int step = 1; ; step++) {
            try {
                return review.call();
            } catch (KubernetesClientException e) {
                if (step >= STEPS || !shouldRetry(e)) {
                    throw e;
                }
            }
            long jittered = (long) (delayNanos * (1 + JITTER * ThreadLocalRandom.current().nextDouble()));
            sleeper.sleep(Duration.ofNanos(jittered));
            delayNanos *= FACTOR;
        }
    }

    static boolean shouldRetry(KubernetesClientException e) {
        int code = e.getCode();
        if (code == 500 || code == 504 || code == 429) {
            return true;
        }
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof IOException && String.valueOf(t.getMessage()).toLowerCase().contains("connection reset")) {
                return true;
            }
        }
        return false;
    }
}
