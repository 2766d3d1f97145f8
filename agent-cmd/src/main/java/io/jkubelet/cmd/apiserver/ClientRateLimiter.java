package io.jkubelet.cmd.apiserver;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * client-go's token bucket ({@code flowcontrol.NewTokenBucketRateLimiter}): {@code qps} tokens a second, at most
 * {@code burst} saved up; a request takes one token and waits for it when there is none. This is what
 * {@code kubeAPIQPS}/{@code kubeAPIBurst} mean: the kubelet's requests are slowed down, never dropped.
 */
final class ClientRateLimiter {
    private final double qps;
    private final double burst;
    private final java.util.function.LongSupplier nanoTime;
    private double tokens;
    private long lastNanos;

    ClientRateLimiter(double qps, int burst) {
        this(qps, burst, System::nanoTime);
    }

    ClientRateLimiter(double qps, int burst, java.util.function.LongSupplier nanoTime) {
        if (qps <= 0 || burst < 1) {
            throw new IllegalArgumentException("qps must be > 0 and burst >= 1, got qps " + qps + ", burst " + burst);
        }
        this.qps = qps;
        this.burst = burst;
        this.nanoTime = nanoTime;
        this.tokens = burst;
        this.lastNanos = nanoTime.getAsLong();
    }

    /** Takes a token, waiting as long as needed; returns the nanoseconds waited. */
    long acquire() {
        long waitNanos = reserve();
        if (waitNanos > 0) {
            long deadline = nanoTime.getAsLong() + waitNanos;
            long left;
            while ((left = deadline - nanoTime.getAsLong()) > 0) {
                LockSupport.parkNanos(left);
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        return waitNanos;
    }

    /** Takes a token now (possibly going into debt) and says how long until it is really ours. */
    synchronized long reserve() {
        long now = nanoTime.getAsLong();
        tokens = Math.min(burst, tokens + (now - lastNanos) * qps / TimeUnit.SECONDS.toNanos(1));
        lastNanos = now;
        tokens -= 1;
        return tokens >= 0 ? 0 : (long) (-tokens / qps * TimeUnit.SECONDS.toNanos(1));
    }
}
