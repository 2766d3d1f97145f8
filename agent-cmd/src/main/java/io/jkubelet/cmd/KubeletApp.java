package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.cluster.ClusterSide;
import io.jkubelet.cmd.certificate.CertificateManager;
import io.jkubelet.cmd.certificate.CertificateMetrics;
import io.jkubelet.cmd.certificate.ClientCertificates;
import io.jkubelet.core.cm.CgroupException;
import io.jkubelet.core.cm.CgroupMounts;
import io.jkubelet.core.cm.ContainerManager;
import io.jkubelet.core.cm.KernelTunables;
import io.jkubelet.core.cm.LinuxContainerManager;
import io.jkubelet.core.cm.NodeConfig;
import io.jkubelet.core.cm.PidLimit;
import io.jkubelet.core.cm.SwapCheck;
import io.jkubelet.core.cm.devicemanager.DevicePluginServer;
import io.jkubelet.deviceplugin.GrpcPluginRegistrationClient;
import io.jkubelet.deviceplugin.RegistrationServer;
import io.jkubelet.podresources.PodResourcesServer;
import io.jkubelet.core.volume.PodDirs;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.core.credentialprovider.DockerConfigFiles;
import io.jkubelet.core.kubelet.GcSettings;
import io.jkubelet.core.kubelet.KubeletExecutors;
import io.jkubelet.core.nodestatus.NodeIdentity;
import io.jkubelet.core.objects.ChangeDetectionStrategy;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.kubelet.Kubelet;
import io.jkubelet.core.kubelet.KubeletDeps;
import io.jkubelet.core.kubelet.KubeletSettings;
import io.jkubelet.core.kubelet.SecuritySettings;
import io.jkubelet.core.kuberuntime.NodeContext;
import io.jkubelet.core.qos.OomScoreAdjuster;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.util.StopSequence;
import io.jkubelet.server.HealthzServer;
import io.jkubelet.server.KubeletView;
import io.jkubelet.server.ReadOnlyServer;
import io.jkubelet.server.healthz.HealthChecker;
import io.jkubelet.server.healthz.HealthcheckSlis;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

/**
 * Builds the kubelet from its server settings and runs it (upstream {@code RunKubelet}): the runtime
 * connection, the agent's own OOM score, the pod sources, the {@link Kubelet} and the HTTP servers.
 */
final class KubeletApp implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(KubeletApp.class);
    /** The PLEG's safety-net relist when runtime events drive it. */
    static final Duration RELIST_PERIOD = Duration.ofSeconds(10);
    /** How long a stop may take; with the JVM's own exit, the process is gone within 5 s of SIGTERM. */
    static final Duration STOP_DEADLINE = Duration.ofSeconds(4);

    /** Start-up failed; the message says what and what to do. */
    static final class StartupException extends Exception {
        StartupException(String message) {
            super(message);
        }
    }

    /** The secure port's TLS, and the manager of its certificate when the apiserver signs it. */
    private record Serving(Optional<SecureServing> secure, Optional<CertificateManager> certificates) {}

    /** What runs, in the order it started: stopped in reverse. */
    private final StopSequence running = new StopSequence();
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** The health check SLIs, shared by every server's health endpoint as upstream's registry is. */
    private final HealthcheckSlis healthcheckSlis = new HealthcheckSlis();

    /** Sets the log verbosity ({@code PUT /debug/flags/v}). */
    private final java.util.function.LongConsumer verbosity;

    private KubeletApp(java.util.function.LongConsumer verbosity) {
        this.verbosity = verbosity;
    }

    /**
     * @param verbosity sets the running log verbosity, for {@code PUT /debug/flags/v}
     */
    /**
     * @param codecWarmUp the pod codec's warm-up, begun before the flags were read ({@link CodecWarmUp}): nothing
     *                    waits for it, its failure is logged
     */
    static KubeletApp start(KubeletServer server, java.util.function.LongConsumer verbosity,
                            StartupStep<Void> codecWarmUp) throws StartupException {
        codecWarmUp.whenFinished(failure -> {
            if (failure != null) {
                log.warn("Warming up the pod codec failed (the first manifest loads it instead): {}", failure.toString());
            } else {
                log.debug("pod codec warmed up {} ms after process start", sinceProcessStart());
            }
        });
        KubeletApp app = new KubeletApp(verbosity);
        try {
            app.run(server);
        } catch (StartupException | RuntimeException e) {
            app.close();
            throw e instanceof StartupException se ? se : new StartupException(e.getMessage());
        }
        return app;
    }

    /** Whether the pod sources started (true) or the start-up ended before they did (false). */
    private final CompletableFuture<Boolean> podSources = new CompletableFuture<>();

    /** Waits for the pod sources to start (never exceptionally); refuses if the start-up ended before they did. */
    private void awaitPodSources() throws StartupException {
        if (!podSources.join()) {
            throw new StartupException("stopped before the pod sources started");
        }
    }

    private void run(KubeletServer server) throws StartupException {
        KubeletFlags flags = server.flags();
        KubeletConfiguration config = server.config();
        String nodeName = nodeName(flags);
        List<String> hostIps = NodeIps.resolve(flags.nodeIps(), nodeName, HostNetwork.system());
        log.info("Starting jkubelet {} as node {} (IPs {}), standalone: {}, {} ms after process start",
                KubeletVersion.compatVersion(), nodeName, hostIps, server.standalone(), sinceProcessStart());
        // What the configuration asks and jkubelet does not do, once each, before anything acts on it.
        UnsupportedSettings.warnings(config, server.standalone(), UnsupportedSettings.Host.current()).forEach(log::warn);
        // The healthz port only answers ping, so it serves first: supervisors see the process alive at once,
        // before TLS set-up (about half a second in a fresh JVM) and the runtime. A bad certificate or a runtime
        // that cannot be reached still ends the process with exit 1.
        startHealthzServer(config);
        log.debug("healthz serving {} ms after process start", sinceProcessStart());

        Optional<KubernetesClient> kubeClient = Optional.empty();
        Optional<CertificateManager> clientCertificates = Optional.empty();
        Optional<io.fabric8.kubernetes.client.http.HttpClient.Factory> httpClients = Optional.empty();
        CertificateMetrics certificateMetrics = new CertificateMetrics();
        if (server.standalone() && !flags.bootstrapKubeconfig().isEmpty()) {
            // Upstream bootstraps only into --kubeconfig; without it the node is standalone and the token unused.
            log.warn("--bootstrap-kubeconfig {} is ignored without --kubeconfig: running standalone",
                    flags.bootstrapKubeconfig());
        }
        if (!server.standalone()) {
            ClientCertificates.Connection connection = NodeCertificates.connect(flags, config, nodeName, certificateMetrics);
            kubeClient = Optional.of(connection.client());
            running.add("apiserver-client", connection.client());
            clientCertificates = connection.manager();
            httpClients = connection.httpClients();
            clientCertificates.ifPresent(m -> running.add("client-certificate-manager", m));
        }
        Optional<KubernetesClient> finalClient = kubeClient;

        // TLS and auth are settled before any pod is touched, as upstream does: a bad certificate or an auth mode that
        // cannot be served ends the process. They are prepared beside the runtime's set-up, not before it: the first
        // static pod needs neither, and on a fresh JVM they cost about a third of a second.
        // A self-signed pair still to be made (a node's first start) is made once the pod sources have started, and
        // the pods do not wait for it: the servers do. Two RSA keys take this JVM (C1 only) over half a second of a
        // core, which the first static pod's start needs.
        StartupStep<Optional<SecureServing.Checked>> tlsChecked = StartupStep.begin("tls",
                () -> SecureServing.check(flags, config, nodeName, Clock.systemUTC(), finalClient));
        StartupStep<Serving> serving = StartupStep.begin("serving-certificate", () -> {
            Optional<SecureServing.Checked> checked = tlsChecked.await();
            if (checked.isPresent() && checked.get().makesSelfSigned()) {
                awaitPodSources();
            }
            Optional<SecureServing> secure = checked.isEmpty() ? Optional.empty() : Optional.of(checked.get().complete());
            return new Serving(secure, NodeCertificates.servingCertificates(flags, config, nodeName, hostIps, secure,
                    finalClient, certificateMetrics));
        });

        OomScoreAdjuster oom = OomScoreAdjuster.forSelf();
        try {
            oom.apply(config.oomScoreAdj());
        } catch (IOException e) {
            log.warn("Failed to set the agent's oom_score_adj to {}: {}", config.oomScoreAdj(), e.getMessage());
        }

        ContainerManager containerManager = containerManager(config);

        RuntimeConnection connection = RuntimeConnection.connect(config);
        running.add("runtime", connection.connection());
        RuntimeService runtime = connection.runtime();
        ImageService images = connection.images();

        Clock clock = Clock.systemUTC();
        ChangeDetectionStrategy objectStrategy = ChangeDetectionStrategy.of(config.configMapAndSecretChangeDetectionStrategy());
        io.fabric8.kubernetes.client.http.HttpClient.Factory clientFactory = httpClients.orElse(null);
        ClusterSide cluster = kubeClient.map(c -> ClusterSide.connect(c, KubeletVersion.compatVersion(), clock, objectStrategy,
                config.syncFrequency(), clientFactory)).orElseGet(ClusterSide::standalone);
        running.add("cluster", cluster);
        EventRecorder recorder = cluster.eventRecorder(nodeName, config, new LoggingEventRecorder(clock));
        Path rootDir = Path.of(flags.rootDirectory());
        NodeContext node = new NodeContext(nodeName, hostIps, Path.of(config.podLogsDir()), Path.of(flags.containerLogsDir()),
                flags.podInfraContainerImage(), config.clusterDNS() == null ? List.of() : config.clusterDNS(),
                config.clusterDomain() == null || config.clusterDomain().isEmpty() ? "cluster.local" : config.clusterDomain(),
                oom::clamp, Objects.requireNonNullElse(config.resolvConf(), NodeContext.DEFAULT_RESOLV_CONF));
        KubeletSettings settings = KubeletSettings.builder()
                .node(node)
                .rootDir(rootDir)
                .syncFrequency(config.syncFrequency())
                .relistPeriod(RELIST_PERIOD)
                .gc(GcSettings.of(flags.containerGcPolicy(), ConfigSettings.imageGcPolicy(config)))
                .maxPods(ConfigSettings.podCapacity(config))
                .imagePulls(ConfigSettings.imagePulls(config))
                .nodeCredentials(DockerConfigFiles.SearchPaths.forProcess(rootDir))
                .kubeletVersion(KubeletVersion.compatVersion())
                .sources(ConfigSettings.podSources(config))
                .memoryCapacity(memoryCapacity())
                .cpuCfsQuota(!Boolean.FALSE.equals(config.cpuCFSQuota()))
                .cpuCfsQuotaPeriod(config.cpuCFSQuotaPeriod())
                .eviction(server.eviction())
                .featureGates(FeatureGates.of(config))
                .volumeStatsAggPeriod(config.volumeStatsAggPeriod())
                .security(new SecuritySettings(Boolean.TRUE.equals(config.seccompDefault()),
                        Objects.requireNonNullElse(config.allowedUnsafeSysctls(), List.of())))
                .build();
        Kubelet kubelet = new Kubelet(settings, new KubeletDeps(runtime, images, recorder, clock, cluster,
                systemContainers(), KubeletExecutors.named(), containerManager, connection.logManager(),
                new RegistrationServer(DevicePluginServer.KUBELET_SOCKET), new GrpcPluginRegistrationClient()));
        running.add("kubelet", kubelet::stop);
        clientCertificates.ifPresent(m -> certificateMetrics.registerClient(kubelet.kubeletMetrics(), m, clock));
        if (config.rotateCertificates()) {
            // Renewals go through the apiserver client the node's loops use; the first may be due at once.
            clientCertificates.ifPresent(CertificateManager::start);
        }
        if (kubelet.sourceNames().isEmpty()) {
            log.warn("No pod source: set staticPodPath (--pod-manifest-path), staticPodURL (--manifest-url) or --kubeconfig");
        }
        kubelet.start();
        startPodResourcesServer(rootDir, kubelet, clock);
        cluster.startNodeSync(config, new NodeIdentity(nodeName, nodeName, hostIps, flags.nodeLabels(),
                KubeletVersion.compatVersion()), rootDir, runtime, images, kubelet::plegHealth, kubelet.nodePressure(),
                kubelet::shutdownStatus, kubelet::deviceCapacity, recorder).ifPresentOrElse(nodeSync -> {
            running.add("node-sync", nodeSync);
            GracefulNodeShutdown.start(config, settings.featureGates(), kubelet, nodeSync::syncNodeStatus, System.getenv());
        }, () -> GracefulNodeShutdown.start(config, settings.featureGates(), kubelet, () -> {}, System.getenv()));
        tlsChecked.await();
        // The pods come first (upstream starts its sync loop before its servers too); the servers follow at once.
        kubelet.startSources();
        podSources.complete(true);
        log.debug("pod sources started {} ms after process start", sinceProcessStart());
        Serving tls = serving.await();
        tls.certificates().ifPresent(m -> {
            certificateMetrics.registerServer(kubelet.kubeletMetrics(), m, clock);
            running.add("serving-certificate-manager", m);
            m.start();
        });
        startServers(server, kubelet, ContainerAccess.of(kubelet, runtime), tls.secure(),
                new DashboardNode(kubelet::node, kubelet.nodePressure(), kubelet::plegHealth, runtime, KubeletVersion.compatVersion()));
        log.info("jkubelet started in {} ms", sinceProcessStart());
    }

    /**
     * Upstream {@code NewContainerManager}: refuses to run with swap on ({@code failSwapOn}), checks or sets the kernel
     * tunables ({@code protectKernelDefaults}, upstream's {@code setupNode}), checks that the cgroup
     * root exists, and reads the machine's capacity for node allocatable.
     */
    private static ContainerManager containerManager(KubeletConfiguration config) throws StartupException {
        try {
            if (!Boolean.FALSE.equals(config.failSwapOn())) {
                SwapCheck.failIfSwapOn(Path.of("/proc/swaps"));
            }
            KernelTunables.setUp(Path.of("/proc/sys"), config.protectKernelDefaults());
            NodeConfig nodeConfig = NodeConfig.from(config);
            Map<String, Quantity> capacity = Map.of(
                    "cpu", new Quantity(Integer.toString(Runtime.getRuntime().availableProcessors())),
                    "memory", new Quantity(Long.toString(memoryCapacity())));
            return LinuxContainerManager.create(nodeConfig, CgroupMounts.forHost(nodeConfig.cgroupDriver()), capacity,
                    PidLimit.maxPids(Path.of("/proc/sys/kernel")));
        } catch (IOException | CgroupException | IllegalStateException e) {
            throw new StartupException(e.getMessage());
        }
    }

    /**
     * Upstream's {@code ListenAndServePodResources}: the pod-resources API on {@code <root-dir>/pod-resources/kubelet.sock}
     * (upstream's kubelet exits when it cannot make the socket).
     */
    private void startPodResourcesServer(Path rootDir, Kubelet kubelet, Clock clock) throws StartupException {
        try {
            running.add("pod-resources-server", PodResourcesServer.start(new PodDirs(rootDir).podResourcesDir(),
                    kubelet.podResources(), clock));
        } catch (IOException | RuntimeException e) {
            throw new StartupException("failed to serve the podresources API on " + rootDir.resolve("pod-resources")
                    + ": " + e.getMessage());
        }
    }

    private void startServers(KubeletServer server, Kubelet kubelet, ContainerAccess containers,
            Optional<SecureServing> secure, DashboardNode node) throws StartupException {
        KubeletConfiguration config = server.config();
        io.jkubelet.server.streaming.ContainerStreaming streaming = new KubeletStreaming(containers);
        List<HealthChecker> checks = List.of(HealthChecker.named("log", Optional::empty),
                HealthChecker.named("syncloop", () -> syncLoopHealth(kubelet, config.syncFrequency())),
                // Upstream reports PLEG health through the node's Ready condition; a standalone node has no
                // node object, so the relist's staleness is a check of its own here.
                HealthChecker.named("pleg", kubelet::plegHealth));
        KubeletView view = new NodeView(containers, streaming, kubelet.probeMetrics(), kubelet.kubeletMetrics(), kubelet::stats,
                NodeView.Diagnostics.of(kubelet, node), healthcheckSlis);
        try {
            if (secure.isPresent()) {
                running.add("secure-server", secure.get().start(view, checks, verbosity::accept));
            }
            if (config.readOnlyPort() > 0) {
                running.add("read-only-server", ReadOnlyServer.start(InetAddress.getByName(config.address()), config.readOnlyPort(), view, checks,
                        !Boolean.FALSE.equals(config.enableDebuggingHandlers())));
            }
            DashboardPort.start(server.flags(), view, checks).ifPresent(s -> running.add("cadvisor-port-server", s));
        } catch (IOException e) {
            throw new StartupException("cannot serve HTTP: " + e.getMessage());
        }
    }

    private void startHealthzServer(KubeletConfiguration config) throws StartupException {
        healthzServer(config, healthcheckSlis).ifPresent(s -> running.add("healthz-server", s));
    }

    /** The healthz server on {@code healthzBindAddress:healthzPort}; none when the port is 0. */
    static Optional<HealthzServer> healthzServer(KubeletConfiguration config, HealthcheckSlis slis) throws StartupException {
        if (config.healthzPort() <= 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(HealthzServer.start(InetAddress.getByName(config.healthzBindAddress()), config.healthzPort(),
                    slis));
        } catch (IOException e) {
            throw new StartupException("cannot serve HTTP: " + e.getMessage());
        }
    }

    /** Fails when the loop has not come round for twice the resync interval, at least 5 minutes (upstream). */
    static Optional<String> syncLoopHealth(Kubelet kubelet, Duration syncFrequency) {
        long limit = Math.max(syncFrequency.multipliedBy(2).toSeconds(), Duration.ofMinutes(5).toSeconds());
        return kubelet.secondsSinceSyncLoopIteration() > limit ? Optional.of("sync Loop took longer than expected")
                : Optional.empty();
    }

    /** The agent's and dockerd's cgroups for the Summary's systemContainers; none when cgroups cannot be read. */
    private static io.jkubelet.core.stats.SystemContainers systemContainers() {
        try {
            return io.jkubelet.core.stats.SystemContainers.of(
                    io.jkubelet.cadvisor.CgroupReader.forRoot(io.jkubelet.cadvisor.CgroupReader.DEFAULT_ROOT),
                    Path.of("/proc"), Path.of("/var/run/docker.pid"));
        } catch (IOException e) {
            log.warn("Cannot read cgroups at {}: the stats summary will have no system containers ({})",
                    io.jkubelet.cadvisor.CgroupReader.DEFAULT_ROOT, e.getMessage());
            return null;
        }
    }

    static String nodeName(KubeletFlags flags) throws StartupException {
        String name = flags.hostnameOverride();
        if (name == null || name.isEmpty()) {
            try {
                name = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                throw new StartupException("cannot determine the host name (" + e.getMessage()
                        + "); set --hostname-override");
            }
        }
        return name.trim().toLowerCase(Locale.ROOT);
    }

    private static long memoryCapacity() {
        try {
            return io.jkubelet.cadvisor.MemInfo.machineMemoryCapacity(Path.of("/proc"));
        } catch (IOException e) {
            log.warn("Cannot read /proc/meminfo: {}", e.getMessage());
        }
        return 0;
    }

    static long sinceProcessStart() {
        return ProcessAge.millis();
    }

    void awaitTermination() {
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops everything in reverse order of start within {@link #STOP_DEADLINE}: the node's apiserver loops and the
     * servers first (no more intake), then the kubelet (its sources, loop, workers, status flush), the event
     * recorder (its last events), the runtime connection and the apiserver client. Containers keep running.
     * Idempotent.
     */
    @Override
    public synchronized void close() {
        podSources.complete(false);
        running.stopAll(STOP_DEADLINE);
        stopped.countDown();
    }
}
