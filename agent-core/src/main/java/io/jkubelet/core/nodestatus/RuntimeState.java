package io.jkubelet.core.nodestatus;

import io.jkubelet.core.runtime.RuntimeService;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The runtime's health as the Ready condition sees it (upstream {@code runtimeState}): the time of the last
 * successful runtime status check and named health checks such as PLEG. The runtime counts as down when no
 * check has succeeded for {@link #BASE_RUNTIME_SYNC_THRESHOLD} (upstream {@code maxWaitForContainerRuntime}). The
 * pressure conditions are the eviction manager's answers. Thread-safe.
 */
public final class RuntimeState implements NodeHealth {
    /** How long the runtime may go unchecked before the node is NotReady (upstream 30s). */
    public static final Duration BASE_RUNTIME_SYNC_THRESHOLD = Duration.ofSeconds(30);
    /** How often the runtime is checked (upstream {@code updateRuntimeUp} every 5s). */
    public static final Duration RUNTIME_CHECK_PERIOD = Duration.ofSeconds(5);

    /** A named check; its error goes into the message as "NAME is not healthy: error". */
    public record HealthCheck(String name, Supplier<Optional<String>> check) {}

    private final Clock clock;
    private final List<HealthCheck> checks;
    private final NodePressure pressure;
    /** The node shutdown manager's error while the node shuts down (upstream {@code nodeShutdownManagerErrorsFunc}). */
    private final Supplier<Optional<String>> shutdownStatus;
    private volatile Instant lastBaseRuntimeSync;

    public RuntimeState(Clock clock, List<HealthCheck> checks) {
        this(clock, checks, NodePressure.NONE);
    }

    /** @param pressure the eviction manager's pressure answers */
    public RuntimeState(Clock clock, List<HealthCheck> checks, NodePressure pressure) {
        this(clock, checks, pressure, Optional::empty);
    }

    /** @param shutdownStatus "node is shutting down" while the node shuts down, last of the Ready condition's errors */
    public RuntimeState(Clock clock, List<HealthCheck> checks, NodePressure pressure,
            Supplier<Optional<String>> shutdownStatus) {
        this.clock = clock;
        this.checks = List.copyOf(checks);
        this.pressure = pressure;
        this.shutdownStatus = shutdownStatus;
    }

    @Override
    public boolean memoryPressure() {
        return pressure.memoryPressure();
    }

    @Override
    public boolean diskPressure() {
        return pressure.diskPressure();
    }

    @Override
    public boolean pidPressure() {
        return pressure.pidPressure();
    }

    /** Records that the runtime answered now. */
    public void runtimeUp() {
        lastBaseRuntimeSync = clock.instant();
    }

    /** Asks the runtime for its version; an answer counts as up (upstream {@code updateRuntimeUp}). */
    public void check(RuntimeService runtime) {
        try {
            runtime.version();
            runtimeUp();
        } catch (RuntimeException e) {
            // stays down; the Ready condition says so once the threshold has passed
        }
    }

    @Override
    public List<String> readinessErrors() {
        List<String> errors = new ArrayList<>();
        Instant last = lastBaseRuntimeSync;
        if (last == null) {
            errors.add("container runtime status check may not have completed yet");
        } else if (!last.plus(BASE_RUNTIME_SYNC_THRESHOLD).isAfter(clock.instant())) {
            errors.add("container runtime is down");
        }
        for (HealthCheck hc : checks) {
            hc.check().get().ifPresent(err -> errors.add(hc.name() + " is not healthy: " + err));
        }
        // Upstream's order: runtime, network, storage, then the node shutdown manager's error.
        shutdownStatus.get().ifPresent(errors::add);
        return errors;
    }
}
