package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.logs.ContainerLogManager;
import io.jkubelet.core.logs.RotatingContainerLogManager;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.RuntimeVersion;
import io.jkubelet.cri.CriRuntime;
import io.jkubelet.cri.CriRuntimeFactory;
import io.jkubelet.cri.CriUnavailableException;
import io.jkubelet.docker.DockerRuntime;
import io.jkubelet.docker.DockerRuntimeFactory;
import io.jkubelet.docker.DockerUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * The container runtime the kubelet talks to, chosen by {@code containerRuntimeEndpoint} as a user expects: a Docker
 * socket ({@code unix:///var/run/docker.sock}, any socket named {@code docker.sock}, or a {@code tcp://} endpoint)
 * goes to the Docker adapter; any other endpoint (upstream's default {@code unix:///run/containerd/containerd.sock},
 * CRI-O's {@code unix:///var/run/crio/crio.sock}) to the CRI adapter, after a {@code Version} call whose answer names
 * the runtime in the node's {@code containerRuntimeVersion}.
 */
record RuntimeConnection(RuntimeService runtime, ImageService images, AutoCloseable connection,
                         ContainerLogManager logManager) {
    private static final Logger log = LoggerFactory.getLogger(RuntimeConnection.class);

    /** Whether {@code endpoint} names a Docker engine rather than a CRI runtime. */
    static boolean isDocker(String endpoint) {
        String e = endpoint.strip().toLowerCase(Locale.ROOT);
        return e.startsWith("tcp://") || e.endsWith("/docker.sock") || e.equals("docker.sock");
    }

    static RuntimeConnection connect(KubeletConfiguration config) throws KubeletApp.StartupException {
        String endpoint = config.containerRuntimeEndpoint();
        return isDocker(endpoint) ? docker(config, endpoint) : cri(config, endpoint);
    }

    private static RuntimeConnection docker(KubeletConfiguration config, String endpoint) throws KubeletApp.StartupException {
        // An imageServiceEndpoint apart from Docker's was refused at start-up (UnsupportedSettings).
        DockerRuntime runtime;
        try {
            runtime = DockerRuntimeFactory.connect(endpoint, ConfigSettings.dockerOptions(config), Clock.systemUTC());
        } catch (DockerUnavailableException | IllegalArgumentException e) {
            throw new KubeletApp.StartupException(e.getMessage());
        }
        try {
            // Pod cgroups are named for Docker to put containers in: both must name them alike (dockershim's check).
            runtime.checkCgroupDriver(config.cgroupDriver());
        } catch (IllegalStateException e) {
            runtime.close();
            throw new KubeletApp.StartupException(e.getMessage());
        }
        DockerLogRotation.Notice unusedLogSettings = DockerLogRotation.unusedSettings(config);
        if (!unusedLogSettings.warning()) { // else it was one of the start-up warnings (UnsupportedSettings)
            log.info(unusedLogSettings.text());
        }
        return new RuntimeConnection(runtime, runtime, runtime, ContainerLogManager.rotatedByRuntime());
    }

    private static RuntimeConnection cri(KubeletConfiguration config, String endpoint) throws KubeletApp.StartupException {
        CriRuntime runtime;
        RuntimeVersion version;
        try {
            runtime = CriRuntimeFactory.connect(endpoint, config.imageServiceEndpoint(), config.runtimeRequestTimeout());
            version = runtime.version();
        } catch (CriUnavailableException | IllegalArgumentException | IllegalStateException e) {
            throw new KubeletApp.StartupException(e.getMessage());
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
            throw new KubeletApp.StartupException(e.getMessage());
        }
        return new RuntimeConnection(runtime, runtime, runtime, logs);
    }
}
