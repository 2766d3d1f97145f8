package io.jkubelet.core.cluster;

import io.jkubelet.core.util.TokenBucket;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * What {@code kubeAPIQPS}/{@code kubeAPIBurst} mean (client-go's {@code flowcontrol.NewTokenBucketRateLimiter} as a
 * blocking limiter): a request takes a token and waits until it is really there. Requests are slowed down, never
 * dropped.
 */
final class ClientRateLimiter {
    private final TokenBucket bucket;

    ClientRateLimiter(TokenBucket bucket) {
        this.bucket = bucket;
    }

    /** Takes a token, waiting as long as needed; returns how long it waited. */
    Duration acquire() {
        Duration wait = bucket.reserve();
        long deadline = System.nanoTime() + wait.toNanos();
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
            if (Thread.currentThread().isInterrupted()) {
                break;
            }
        }
        return wait;
    }
}
