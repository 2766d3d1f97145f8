package io.jkubelet.docker;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of the Docker adapter.
 *
 * @param requestTimeout how long a short Docker call may take (the kubelet's {@code runtimeRequestTimeout},
 *     2m by default); a stop may take it beyond the container's grace period; pulls, execs and the event stream
 *     are not bounded by it
 * @param sandboxStopGracePeriod how long {@code stopPodSandbox} lets containers that still run, and the
 *     sandbox itself, handle SIGTERM (dockershim's 10s)
 * @param imagePullProgressDeadline how long a pull may go without progress before it is cancelled (dockershim's
 *     {@code --image-pull-progress-deadline}, 1m; upstream's kubelet bounds pulls no otherwise)
 * @param logOptions options of Docker's {@code json-file} log driver for app containers, e.g.
 *     {@code max-size=10485760}, {@code max-file=5} (see {@link #withLogRotation})
 */
public record DockerRuntimeOptions(Duration requestTimeout, Duration sandboxStopGracePeriod,
                                   Duration imagePullProgressDeadline, Map<String, String> logOptions) {

    public static final DockerRuntimeOptions DEFAULTS =
            new DockerRuntimeOptions(Duration.ofMinutes(2), Duration.ofSeconds(10), Duration.ofMinutes(1), Map.of());

    public DockerRuntimeOptions {
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(sandboxStopGracePeriod, "sandboxStopGracePeriod");
        Objects.requireNonNull(imagePullProgressDeadline, "imagePullProgressDeadline");
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("requestTimeout must be positive, got " + requestTimeout);
        }
        if (sandboxStopGracePeriod.isNegative()) {
            throw new IllegalArgumentException("sandboxStopGracePeriod must not be negative, got " + sandboxStopGracePeriod);
        }
        if (imagePullProgressDeadline.isNegative() || imagePullProgressDeadline.isZero()) {
            throw new IllegalArgumentException("imagePullProgressDeadline must be positive, got "
                    + imagePullProgressDeadline);
        }
        logOptions = Map.copyOf(logOptions);
    }

    /** These options with pulls cancelled after {@code deadline} without progress. */
    public DockerRuntimeOptions withImagePullProgressDeadline(Duration deadline) {
        return new DockerRuntimeOptions(requestTimeout, sandboxStopGracePeriod, deadline, logOptions);
    }

    /** These options with short calls bounded by {@code timeout} ({@code runtimeRequestTimeout}). */
    public DockerRuntimeOptions withRequestTimeout(Duration timeout) {
        return new DockerRuntimeOptions(timeout, sandboxStopGracePeriod, imagePullProgressDeadline, logOptions);
    }

    /**
     * These options with app containers' logs rotated by Docker's json-file driver: at {@code maxSize} bytes the live
     * file becomes {@code <id>-json.log.1} (the older ones move up by one) and a new one is started, keeping
     * {@code maxFiles} files in all (the kubelet's {@code containerLogMaxSize} and {@code containerLogMaxFiles}). The
     * driver rotates between two lines as it writes them, so no line is lost or split. The size goes as plain bytes:
     * Docker reads {@code 10m} as 10,000,000. The rotated files stay uncompressed ({@code compress} unset) so that
     * log readers read them as they are. A negative {@code maxSize} means no rotation: no options at all.
     */
    public DockerRuntimeOptions withLogRotation(long maxSize, int maxFiles) {
        if (maxSize < 0) {
            return new DockerRuntimeOptions(requestTimeout, sandboxStopGracePeriod, imagePullProgressDeadline, Map.of());
        }
        if (maxFiles < 1) {
            throw new IllegalArgumentException("max-file must be at least 1, got " + maxFiles);
        }
        // Docker refuses max-size 0; one byte (a file per line) is the nearest it takes.
        return new DockerRuntimeOptions(requestTimeout, sandboxStopGracePeriod, imagePullProgressDeadline,
                Map.of("max-size", Long.toString(Math.max(1, maxSize)), "max-file", Integer.toString(maxFiles)));
    }
}
