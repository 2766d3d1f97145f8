package io.jkubelet.core.kubelet;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the node's pods come from besides the apiserver: the static pod directory and the manifest URL.
 *
 * @param staticPodPath       {@code staticPodPath} (--pod-manifest-path), or empty
 * @param fileCheckFrequency  {@code fileCheckFrequency}
 * @param staticPodUrl        {@code staticPodURL} (--manifest-url), or empty; checked when the kubelet is built
 * @param staticPodUrlHeader  {@code staticPodURLHeader}
 * @param httpCheckFrequency  {@code httpCheckFrequency}
 */
public record PodSourceSettings(Optional<Path> staticPodPath, Duration fileCheckFrequency, Optional<String> staticPodUrl,
                                Map<String, List<String>> staticPodUrlHeader, Duration httpCheckFrequency) {

    /** No static pods: the apiserver's pods only (or, standalone, pods handed in by tests). */
    public static final PodSourceSettings NONE = new PodSourceSettings(Optional.empty(), Duration.ofSeconds(20),
            Optional.empty(), Map.of(), Duration.ofSeconds(20));

    public PodSourceSettings {
        staticPodUrlHeader = staticPodUrlHeader == null ? Map.of() : Map.copyOf(staticPodUrlHeader);
    }
}
