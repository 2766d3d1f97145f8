package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Objects;

/**
 * Pods that one source changed in one way, after {@code kubetypes.PodUpdate}.
 *
 * <p>The list is an unmodifiable copy. The pods in an update that {@link PodConfig} emits are the
 * receiver's own copies: mutating them does not affect {@code PodConfig} or other receivers.
 *
 * @param pods   the pods, in the order the source listed them
 * @param op     what happened to them
 * @param source the source's name, one of {@link PodSources}
 */
public record PodUpdate(List<Pod> pods, PodOperation op, String source) {

    public PodUpdate {
        pods = List.copyOf(pods);
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(source, "source");
    }

    /** A full snapshot of {@code source}'s pods. */
    public static PodUpdate set(String source, List<Pod> pods) {
        return new PodUpdate(pods, PodOperation.SET, source);
    }

    @Override
    public String toString() {
        StringBuilder names = new StringBuilder();
        for (Pod pod : pods) {
            if (!names.isEmpty()) {
                names.append(", ");
            }
            names.append(ConfigAnnotations.podFullName(pod));
        }
        return "PodUpdate[" + op + " from " + source + ": " + names + "]";
    }
}
