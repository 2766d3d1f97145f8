package io.jkubelet.core.runtime;

import java.time.Instant;
import java.util.Map;

/** A sandbox as listed (CRI {@code PodSandbox}). */
public record PodSandbox(String id, PodSandboxMetadata metadata, PodSandboxState state, Instant createdAt,
                         Map<String, String> labels, Map<String, String> annotations) {
    public PodSandbox {
        labels = Map.copyOf(labels);
        annotations = Map.copyOf(annotations);
    }
}
