package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.logs.ContainerLogManager;
import io.jkubelet.core.logs.RotatingContainerLogManager;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeProcess;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.RuntimeVersion;
import io.jkubelet.cri.CriRuntime;
import io.jkubelet.cri.CriRuntimeFactory;
import io.jkubelet.cri.CriRuntimeProcess;
import io.jkubelet.cri.CriUnavailableException;
import io.jkubelet.docker.DockerRuntime;
import io.jkubelet.docker.DockerRuntimeFactory;
import io.jkubelet.docker.DockerUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The container runtime the kubelet talks to, chosen by {@code containerRuntimeEndpoint} ({@link RuntimeEndpoint}): a
 * Docker engine goes to the Docker adapter; any other runtime to the CRI adapter, after a {@code Version} call whose
 * answer names the runtime in the node's {@code containerRuntimeVersion}.
 *
 * @param process the runtime's own daemon on this machine, as its adapter names it, for the node's {@code runtime}
 *                system container; empty when the adapter names none
 */
record RuntimeConnection(RuntimeService runtime, ImageService images, AutoCloseable connection,
                         ContainerLogManager logManager, Optional<RuntimeProcess> process) {
    private static final Logger log = LoggerFactory.getLogger(RuntimeConnection.class);

    static RuntimeConnection connect(KubeletConfiguration config) throws StartupException {
        String endpoint = config.containerRuntimeEndpoint();
        return RuntimeEndpoint.isDocker(endpoint) ? docker(config, endpoint) : cri(config, endpoint);
    }

    private static RuntimeConnection docker(KubeletConfiguration config, String endpoint) throws StartupException {
        // An imageServiceEndpoint apart from Docker's was refused at start-up (UnsupportedSettings).
        DockerRuntime runtime;
        try {
            runtime = DockerRuntimeFactory.connect(endpoint, ConfigSettings.dockerOptions(config), Clock.systemUTC());
        } catch (DockerUnavailableException | IllegalArgumentException e) {
            throw StartupException.of(e);
        }
        try {
            // Pod cgroups are named for Docker to put containers in: both must name them alike (dockershim's check).
            runtime.checkCgroupDriver(config.cgroupDriver());
        } catch (IllegalStateException e) {
            runtime.close();
            throw StartupException.of(e);
        }
        DockerLogRotation.Notice unusedLogSettings = DockerLogRotation.unusedSettings(config);
        if (!unusedLogSettings.warning()) { // else it was one of the start-up warnings (UnsupportedSettings)
            log.info(unusedLogSettings.text());
        }
        return new RuntimeConnection(runtime, runtime, runtime, ContainerLogManager.rotatedByRuntime(),
                Optional.of(runtime.runtimeProcess()));
    }

    private static RuntimeConnection cri(KubeletConfiguration config, String endpoint) throws StartupException {
        CriRuntime runtime;
        RuntimeVersion version;
        try {
            runtime = CriRuntimeFactory.connect(endpoint, config.imageServiceEndpoint(), config.runtimeRequestTimeout());
            version = runtime.version();
        } catch (CriUnavailableException | IllegalArgumentException | IllegalStateException e) {
            throw StartupException.of(e);
        }
        log.info("Container runtime {} {} (CRI {}) at {}", version.runtimeName(), version.runtimeVersion(),
                version.runtimeApiVersion(), endpoint);
        // With a CRI runtime the kubelet rotates logs itself, as upstream's container log manager.
        Duration interval = Objects.requireNonNullElse(config.containerLogMonitorInterval(),
                DockerLogRotation.DEFAULT_MONITOR_INTERVAL);
        int workers = Objects.requireNonNullElse(config.containerLogMaxWorkers(), DockerLogRotation.DEFAULT_MAX_WORKERS);
        if (workers != DockerLogRotation.DEFAULT_MAX_WORKERS) {
            log.warn("containerLogMaxWorkers ({}): jkubelet rotates container logs on one worker", workers);
        }
        ContainerLogManager logs;
        try {
            logs = new RotatingContainerLogManager(runtime, DockerLogRotation.policy(config), interval, Clock.systemUTC());
        } catch (IllegalArgumentException e) {
            runtime.close();
            throw StartupException.of(e);
        }
        return new RuntimeConnection(runtime, runtime, runtime, logs, CriRuntimeProcess.of(version));
    }
}
