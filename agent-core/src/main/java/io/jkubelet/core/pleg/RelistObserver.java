package io.jkubelet.core.pleg;

import java.time.Duration;
import java.util.Map;

/** Told about every PLEG relist, for upstream's PLEG and running-pod metrics. Called on the PLEG's thread. */
@FunctionalInterface
public interface RelistObserver {
    RelistObserver NOOP = (took, sincePrevious, readySandboxes, containersByState) -> { };

    /**
     * @param took how long the relist took
     * @param sincePrevious the time since the previous relist started, {@code null} for the first
     * @param readySandboxes the sandboxes that are ready (upstream's running pods)
     * @param containersByState containers by state: {@code created}, {@code running}, {@code exited}, {@code unknown}
     */
    void relisted(Duration took, Duration sincePrevious, int readySandboxes, Map<String, Integer> containersByState);
}
