package io.jkubelet.core.runtime;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A container's status (CRI {@code ContainerStatus}). Times the runtime does not have are {@code null}.
 *
 * @param reason why the container exited, in the runtime's words ({@code Completed}, {@code Error},
 *     {@code OOMKilled}, {@code ContainerCannotRun}); empty while it runs
 * @param message the runtime's error message, if any
 * @param logPath the absolute path of the container's log file
 */
public record ContainerStatus(
        String id,
        ContainerMetadata metadata,
        ContainerState state,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        int exitCode,
        String image,
        String imageRef,
        String reason,
        String message,
        Map<String, String> labels,
        Map<String, String> annotations,
        List<Mount> mounts,
        String logPath) {

    public ContainerStatus {
        labels = Map.copyOf(labels);
        annotations = Map.copyOf(annotations);
        mounts = List.copyOf(mounts);
    }
}
