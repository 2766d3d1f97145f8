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
 *     {@code max-size=10m}, {@code max-file=5} (the kubelet's containerLogMaxSize/containerLogMaxFiles)
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
}
