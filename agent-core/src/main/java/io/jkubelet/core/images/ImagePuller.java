package io.jkubelet.core.images;

import io.jkubelet.core.runtime.ImagePullException;
import io.jkubelet.core.util.TokenBucket;

import java.time.Clock;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * When a pull may run: it waits for a slot (one with {@code serializeImagePulls}, upstream's serial puller;
 * {@code maxParallelImagePulls} without it, upstream's parallel puller; unlimited when that is unset), then takes a
 * token of the registry throttle ({@code registryPullQPS}/{@code registryBurst}, upstream's
 * {@code throttleImagePulling}). Without a token the pull fails at once with upstream's {@value #QPS_EXCEEDED},
 * and the image backs off as after any failed pull. The slot is taken first, so pulls waiting their turn do not
 * spend tokens. Thread-safe.
 */
final class ImagePuller {
    /** Upstream's error when the throttle has no token (images/helpers.go). */
    static final String QPS_EXCEEDED = "pull QPS exceeded";

    /** Slots in FIFO order, as upstream's channel of pull requests; null for no limit. */
    private final Semaphore slots;
    /** Null when registryPullQPS is 0. */
    private final TokenBucket throttle;

    ImagePuller(ImagePullLimits limits, Clock clock) {
        Integer permits = limits.serialize() ? Integer.valueOf(1) : limits.maxParallel();
        this.slots = permits == null ? null : new Semaphore(permits, true);
        this.throttle = limits.qps() == 0 ? null : new TokenBucket(limits.qps(), limits.burst(), clock);
    }

    /**
     * Runs {@code pull} of {@code image} once a slot is free and the throttle allows it.
     *
     * @throws ImagePullException from the pull, or {@value #QPS_EXCEEDED}, or when interrupted while waiting
     */
    String pull(String image, Supplier<String> pull) {
        if (slots != null) {
            try {
                slots.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ImagePullException("interrupted while waiting to pull image \"" + image + "\"", e);
            }
        }
        try {
            if (throttle != null && !throttle.tryAccept()) {
                throw new ImagePullException(QPS_EXCEEDED, null);
            }
            return pull.get();
        } finally {
            if (slots != null) {
                slots.release();
            }
        }
    }
}
