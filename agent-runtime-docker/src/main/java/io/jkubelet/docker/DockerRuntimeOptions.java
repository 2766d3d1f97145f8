package io.jkubelet.docker;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of the Docker adapter.
 *
 * @param requestTimeout how long a short Docker call may take (the kubelet's {@code runtimeRequestTimeout},
 *     2m by default); stops, pulls, execs and the event stream are not bounded by it
 * @param sandboxStopGracePeriod how long {@code stopPodSandbox} lets containers that still run, and the
 *     sandbox itself, handle SIGTERM (dockershim's 10s)
 * @param logOptions options of Docker's {@code json-file} log driver for app containers, e.g.
 *     {@code max-size=10485760}, {@code max-file=5} (see {@link #withLogRotation})
 */
public record DockerRuntimeOptions(Duration requestTimeout, Duration sandboxStopGracePeriod,
                                   Map<String, String> logOptions) {

    public static final DockerRuntimeOptions DEFAULTS =
            new DockerRuntimeOptions(Duration.ofMinutes(2), Duration.ofSeconds(10), Map.of());

    public DockerRuntimeOptions {
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(sandboxStopGracePeriod, "sandboxStopGracePeriod");
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("requestTimeout must be positive, got " + requestTimeout);
        }
        if (sandboxStopGracePeriod.isNegative()) {
            throw new IllegalArgumentException("sandboxStopGracePeriod must not be negative, got " + sandboxStopGracePeriod);
        }
        logOptions = Map.copyOf(logOptions);
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
            return new DockerRuntimeOptions(requestTimeout, sandboxStopGracePeriod, Map.of());
        }
        if (maxFiles < 1) {
            throw new IllegalArgumentException("max-file must be at least 1, got " + maxFiles);
        }
        // Docker refuses max-size 0; one byte (a file per line) is the nearest it takes.
        return new DockerRuntimeOptions(requestTimeout, sandboxStopGracePeriod,
                Map.of("max-size", Long.toString(Math.max(1, maxSize)), "max-file", Integer.toString(maxFiles)));
    }
}
