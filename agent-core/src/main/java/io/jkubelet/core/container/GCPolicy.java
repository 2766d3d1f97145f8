package io.jkubelet.core.container;

import io.jkubelet.core.apis.config.GoDuration;

import java.time.Duration;
import java.util.Objects;

/**
 * What container GC keeps of dead containers (upstream {@code kubecontainer.GCPolicy}), from the deprecated flags
 * {@code --minimum-container-ttl-duration}, {@code --maximum-dead-containers-per-container} and
 * {@code --maximum-dead-containers}.
 *
 * @param minAge a dead container created less than this ago is left alone
 * @param maxPerPodContainer dead instances kept per container of a pod; negative: no limit
 * @param maxContainers dead containers kept on the node; negative: no limit
 */
public record GCPolicy(Duration minAge, int maxPerPodContainer, int maxContainers) {
    /**
     * The flags' defaults: one dead instance per container is kept, so that {@code kubectl logs --previous} and the
     * container's last state survive its restart; no node-wide limit.
     */
    public static final GCPolicy DEFAULT = new GCPolicy(Duration.ZERO, 1, -1);

    /** @throws IllegalArgumentException with upstream's message when {@code minAge} is negative */
    public GCPolicy {
        Objects.requireNonNull(minAge, "minAge");
        if (minAge.isNegative()) {
            throw new IllegalArgumentException("invalid minimum garbage collection age: " + GoDuration.format(minAge));
        }
    }
}
