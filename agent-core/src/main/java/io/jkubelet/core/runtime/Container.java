package io.jkubelet.core.runtime;

import java.time.Instant;
import java.util.Map;

/**
 * A container as listed (CRI {@code Container}).
 *
 * @param image the image as the spec named it
 * @param imageRef the image id the container runs
 */
public record Container(String id, String podSandboxId, ContainerMetadata metadata, String image, String imageRef,
                        ContainerState state, Instant createdAt,
                        Map<String, String> labels, Map<String, String> annotations) {
    public Container {
        labels = Map.copyOf(labels);
        annotations = Map.copyOf(annotations);
    }
}
