package io.jkubelet.core.images;

/**
 * How many image pulls may run at once and how often, from the kubelet's {@code serializeImagePulls},
 * {@code maxParallelImagePulls}, {@code registryPullQPS} and {@code registryBurst}.
 *
 * @param serialize one pull at a time, in the order asked (upstream's serial puller)
 * @param maxParallel without {@code serialize}: at most this many pulls at once; null for no limit
 * @param qps pulls a second the registry token bucket refills; 0 for no limit (upstream: QPS 0 turns the throttle off)
 * @param burst how many pulls the bucket holds; the bucket starts full
 */
public record ImagePullLimits(boolean serialize, Integer maxParallel, int qps, int burst) {

    /** One pull at a time, not throttled: what tests that do not look at pull limits use. */
    public static final ImagePullLimits SERIAL = new ImagePullLimits(true, null, 0, 0);

    public ImagePullLimits {
        if (maxParallel != null && maxParallel < 1) {
            throw new IllegalArgumentException("maxParallelImagePulls must be positive, got " + maxParallel);
        }
        if (qps < 0 || burst < 0 || (qps > 0 && burst < 1)) {
            throw new IllegalArgumentException("registryPullQPS " + qps + " and registryBurst " + burst
                    + ": a throttle needs a QPS and a burst of at least 1");
        }
    }
}
