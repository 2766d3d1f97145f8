package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.GoDuration;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.logs.LogRotatePolicy;
import io.jkubelet.docker.DockerRuntimeOptions;

import java.time.Duration;
import java.util.Objects;

/**
 * The kubelet's container log settings on the Docker runtime. {@code containerLogMaxSize} and
 * {@code containerLogMaxFiles} become each app container's json-file {@code max-size}/{@code max-file}: Docker
 * rotates as it writes, so nothing a container writes is lost between two checks and no reopen is needed (Docker
 * has none). {@code containerLogMonitorInterval} and {@code containerLogMaxWorkers} drive upstream's periodic
 * rotation of CRI logs, which has nothing to do here: they are said to be unused at start-up, as a warning when
 * they were set to other than their defaults. Pure.
 */
final class DockerLogRotation {
    /** Upstream's defaults of the two settings Docker's rotation does not use. */
    static final Duration DEFAULT_MONITOR_INTERVAL = Duration.ofSeconds(10);
    static final int DEFAULT_MAX_WORKERS = 1;

    private DockerLogRotation() {}

    /**
     * {@code base} with the configuration's rotation.
     *
     * @throws IllegalArgumentException naming the setting when it cannot be used
     */
    static DockerRuntimeOptions options(KubeletConfiguration config, DockerRuntimeOptions base) {
        LogRotatePolicy policy = policy(config);
        return base.withLogRotation(policy.maxSize(), policy.maxFiles());
    }

    static LogRotatePolicy policy(KubeletConfiguration config) {
        return LogRotatePolicy.of(config.containerLogMaxSize(), Objects.requireNonNullElse(config.containerLogMaxFiles(), 5));
    }

    /** What start-up says about the two settings Docker does not use. */
    record Notice(boolean warning, String text) {}

    static Notice unusedSettings(KubeletConfiguration config) {
        Duration interval = Objects.requireNonNullElse(config.containerLogMonitorInterval(), DEFAULT_MONITOR_INTERVAL);
        int workers = Objects.requireNonNullElse(config.containerLogMaxWorkers(), DEFAULT_MAX_WORKERS);
        LogRotatePolicy policy = policy(config);
        String rotation = policy.rotates()
                ? "Docker's json-file driver rotates each container's log as it writes it (containerLogMaxSize "
                        + config.containerLogMaxSize() + ", containerLogMaxFiles " + policy.maxFiles() + ")"
                : "container logs are not rotated (containerLogMaxSize " + config.containerLogMaxSize() + ")";
        String text = "containerLogMonitorInterval (" + GoDuration.format(interval) + ") and containerLogMaxWorkers ("
                + workers + ") are not used with the Docker runtime: " + rotation;
        return new Notice(!interval.equals(DEFAULT_MONITOR_INTERVAL) || workers != DEFAULT_MAX_WORKERS, text);
    }
}
