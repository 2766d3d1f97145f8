package io.jkubelet.cmd;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.jkubelet.cmd.certificate.CertificateManager;
import io.jkubelet.cmd.certificate.CertificateMetrics;
import io.jkubelet.cmd.certificate.ClientCertificates;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.cluster.ClusterSide;
import io.jkubelet.core.cm.ContainerManager;
import io.jkubelet.core.cm.cpumanager.CpuManager;
import io.jkubelet.core.cm.memorymanager.MemoryManager;
import io.jkubelet.core.cm.topologymanager.TopologyManager;
import io.jkubelet.core.cm.devicemanager.DevicePluginServer;
import io.jkubelet.core.credentialprovider.DockerConfigFiles;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.kubelet.GcSettings;
import io.jkubelet.core.kubelet.Kubelet;
import io.jkubelet.core.kubelet.KubeletDeps;
import io.jkubelet.core.kubelet.KubeletSettings;
import io.jkubelet.core.kubelet.SecuritySettings;
import io.jkubelet.core.kuberuntime.NodeContext;
import io.jkubelet.core.nodestatus.NodeIdentity;
import io.jkubelet.core.qos.OomScoreAdjuster;
import io.jkubelet.core.util.StopSequence;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.csi.GrpcCsiDriverClient;
import io.jkubelet.deviceplugin.GrpcPluginRegistrationClient;
import io.jkubelet.deviceplugin.RegistrationServer;
import io.jkubelet.podresources.PodResourcesServer;
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
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongConsumer;

/**
 * Builds the kubelet from its server settings and runs it (upstream {@code RunKubelet}): the runtime
 * connection, the agent's own OOM score, the pod sources, the {@link Kubelet} and the HTTP servers, in the start-up
 * order the first static pod needs (see {@link #run}).
 */
final class KubeletApp implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(KubeletApp.class);
    /** The PLEG's safety-net relist when runtime events drive it. */
    static final Duration RELIST_PERIOD = Duration.ofSeconds(10);
    /** How long a stop may take; with the JVM's own exit, the process is gone within 5 s of SIGTERM. */
    static final Duration STOP_DEADLINE = Duration.ofSeconds(4);

    /** This node as start-up names it. */
    private record Node(String name, List<String> ips) {}

    /** The apiserver client (none standalone), the manager of its certificate, and its HTTP clients. */
    private record ApiserverClient(Optional<KubernetesClient> client, Optional<CertificateManager> certificates,
                                   Optional<HttpClient.Factory> httpClients) {
        static final ApiserverClient STANDALONE = new ApiserverClient(Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    /** The secure port's TLS, and the manager of its certificate when the apiserver signs it. */
    private record Serving(Optional<SecureServing> secure, Optional<CertificateManager> certificates) {}

    /** The secure port's start-up steps: its settings checked, then its TLS context and certificate manager. */
    private record SecurePortSteps(StartupStep<Optional<SecureServing.Checked>> checked, StartupStep<Serving> serving) {}

    /** A part of start-up that may refuse to start. */
    @FunctionalInterface
    interface StartUp {
        void run() throws StartupException;
    }

    /** What runs, in the order it started: stopped in reverse. */
    private final StopSequence running = new StopSequence();
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** The health check SLIs, shared by every server's health endpoint as upstream's registry is. */
    private final HealthcheckSlis healthcheckSlis = new HealthcheckSlis();
    /** The certificate managers' metrics, made once the healthz port serves. */
    private CertificateMetrics certificateMetrics;
    /** Whether the pod sources started (true) or the start-up ended before they did (false). */
    private final CompletableFuture<Boolean> podSources = new CompletableFuture<>();

    /** Sets the log verbosity ({@code PUT /debug/flags/v}). */
    private final LongConsumer verbosity;

    KubeletApp(LongConsumer verbosity) {
        this.verbosity = verbosity;
    }

    /**
     * @param verbosity   sets the running log verbosity, for {@code PUT /debug/flags/v}
     * @param codecWarmUp the pod codec's warm-up, begun before the flags were read ({@link CodecWarmUp}): nothing
     *                    waits for it, its failure is logged
     */
    static KubeletApp start(KubeletServer server, LongConsumer verbosity, StartupStep<Void> codecWarmUp)
            throws StartupException {
        codecWarmUp.whenFinished(failure -> {
            if (failure != null) {
                log.warn("Warming up the pod codec failed (the first manifest loads it instead): {}", failure.toString());
            } else {
                log.debug("pod codec warmed up {} ms after process start", sinceProcessStart());
            }
        });
        KubeletApp app = new KubeletApp(verbosity);
        app.startOrClose(() -> app.run(server));
        return app;
    }

    /**
     * Runs {@code startUp}; when it fails, stops what it started and throws the failure as a start-up error: one
     * thrown as such as it is, any other with its own message (its class name when it has none) and itself as the
     * cause.
     */
    void startOrClose(StartUp startUp) throws StartupException {
        try {
            startUp.run();
        } catch (StartupException e) {
            close();
            throw e;
        } catch (RuntimeException e) {
            close();
            throw StartupException.of(e);
        }
    }

    /**
     * The start-up, step by step, in the order the first static pod needs (issue 14): the healthz port first; the
     * secure port's settings checked and its TLS context built on start-up threads while this thread sets up the
     * container manager, connects to the runtime and builds and starts the kubelet; the pod sources once the secure
     * port's settings are known good; the servers last.
     */
    private void run(KubeletServer server) throws StartupException {
        KubeletConfiguration config = server.config();
        Node node = identifyNode(server);
        // The healthz port only answers ping, so it serves first: supervisors see the process alive at once,
        // before TLS set-up (about half a second in a fresh JVM) and the runtime. A bad certificate or a runtime
        // that cannot be reached still ends the process with exit 1.
        KubeletServers.healthzServer(config, healthcheckSlis).ifPresent(s -> running.add("healthz-server", s));
        log.debug("healthz serving {} ms after process start", sinceProcessStart());
        certificateMetrics = new CertificateMetrics();
        ApiserverClient apiserver = connectToApiserver(server, node);
        SecurePortSteps securePort = prepareSecurePort(server, node, apiserver);
        OomScoreAdjuster oom = HostSetup.applyOomScoreAdj(config);
        ContainerManager containerManager = HostSetup.containerManager(config);
        TopologyManager topologyManager = HostSetup.topologyManager(config);
        Optional<CpuManager> cpuManager = HostSetup.cpuManager(config, containerManager,
                Path.of(server.flags().rootDirectory()), topologyManager);
        Optional<MemoryManager> memoryManager = HostSetup.memoryManager(config, containerManager,
                Path.of(server.flags().rootDirectory()), topologyManager);
        RuntimeConnection connection = RuntimeConnection.connect(config);
        running.add("runtime", connection.connection());
        Clock clock = Clock.systemUTC();
        ClusterSide cluster = clusterSide(server, apiserver, clock);
        EventRecorder recorder = cluster.eventRecorder(node.name(), config, new LoggingEventRecorder(clock));
        Kubelet kubelet = createAndStartKubelet(server, node, oom, containerManager, cpuManager, memoryManager,
                topologyManager, connection, cluster, recorder, apiserver, clock);
        startPodResourcesServer(Path.of(server.flags().rootDirectory()), kubelet, clock);
        startPodSources(kubelet, securePort.checked());
        serve(server, kubelet, connection, securePort.serving().await(), clock);
        log.info("jkubelet started in {} ms", sinceProcessStart());
    }

    /** The node's name and IPs, said in the first log line, then what jkubelet does not do of the configuration. */
    private static Node identifyNode(KubeletServer server) throws StartupException {
        KubeletFlags flags = server.flags();
        String nodeName = nodeName(flags);
        List<String> hostIps = NodeIps.resolve(flags.nodeIps(), nodeName, HostNetwork.system());
        log.info("Starting jkubelet {} as node {} (IPs {}), standalone: {}, {} ms after process start",
                KubeletVersion.compatVersion(), nodeName, hostIps, server.standalone(), sinceProcessStart());
        // What the configuration asks and jkubelet does not do, once each, before anything acts on it.
        UnsupportedSettings.warnings(server.config(), server.standalone(), UnsupportedSettings.Host.current())
                .forEach(log::warn);
        return new Node(nodeName, hostIps);
    }

    /** The apiserver client of {@code --kubeconfig}, bootstrapped first with {@code --bootstrap-kubeconfig}. */
    private ApiserverClient connectToApiserver(KubeletServer server, Node node) throws StartupException {
        KubeletFlags flags = server.flags();
        if (server.standalone() && !flags.bootstrapKubeconfig().isEmpty()) {
            // Upstream bootstraps only into --kubeconfig; without it the node is standalone and the token unused.
            log.warn("--bootstrap-kubeconfig {} is ignored without --kubeconfig: running standalone",
                    flags.bootstrapKubeconfig());
        }
        if (server.standalone()) {
            return ApiserverClient.STANDALONE;
        }
        ClientCertificates.Connection connection = NodeCertificates.connect(flags, server.config(), node.name(),
                certificateMetrics);
        running.add("apiserver-client", connection.client());
        connection.manager().ifPresent(m -> running.add("client-certificate-manager", m));
        return new ApiserverClient(Optional.of(connection.client()), connection.manager(), connection.httpClients());
    }

    /**
     * TLS and auth are settled before any pod is touched, as upstream does: a bad certificate or an auth mode that
     * cannot be served ends the process. They are prepared beside the runtime's set-up, not before it: the first
     * static pod needs neither, and on a fresh JVM they cost about a third of a second. A self-signed pair still to be
     * made (a node's first start) is made once the pod sources have started, and the pods do not wait for it: the
     * servers do. Two RSA keys take this JVM (C1 only) over half a second of a core, which the first static pod's
     * start needs.
     */
    private SecurePortSteps prepareSecurePort(KubeletServer server, Node node, ApiserverClient apiserver) {
        KubeletFlags flags = server.flags();
        KubeletConfiguration config = server.config();
        StartupStep<Optional<SecureServing.Checked>> checked = StartupStep.begin("tls",
                () -> SecureServing.check(flags, config, node.name(), Clock.systemUTC(), apiserver.client()));
        StartupStep<Serving> serving = StartupStep.begin("serving-certificate", () -> {
            Optional<SecureServing.Checked> tls = checked.await();
            if (tls.isPresent() && tls.get().makesSelfSigned()) {
                awaitPodSources();
            }
            Optional<SecureServing> secure = tls.isEmpty() ? Optional.empty() : Optional.of(tls.get().complete());
            return new Serving(secure, NodeCertificates.servingCertificates(flags, config, node.name(), node.ips(),
                    secure, apiserver.client(), certificateMetrics));
        });
        return new SecurePortSteps(checked, serving);
    }

    /** Everything that talks to the apiserver, or the standalone node's stand-ins. */
    private ClusterSide clusterSide(KubeletServer server, ApiserverClient apiserver, Clock clock) {
        HttpClient.Factory clientFactory = apiserver.httpClients().orElse(null);
        ClusterSide cluster = apiserver.client().map(c -> ClusterSide.connect(c, KubeletVersion.compatVersion(), clock,
                server.changeDetectionStrategy(), server.config().syncFrequency(), clientFactory))
                .orElseGet(ClusterSide::standalone);
        running.add("cluster", cluster);
        return cluster;
    }

    /**
     * Upstream's {@code createAndInitKubelet} and the start of {@code startKubelet}: the core's {@link Kubelet} from
     * the node's context, its settings and its dependencies, the client certificate's manager started on it, the
     * kubelet started, then the node's apiserver loops (registration, status, lease) and graceful node shutdown.
     * Every call that builds or wires the core's kubelet is here, in its order.
     */
    private Kubelet createAndStartKubelet(KubeletServer server, Node node, OomScoreAdjuster oom,
                                          ContainerManager containerManager, Optional<CpuManager> cpuManager,
                                          Optional<MemoryManager> memoryManager,
                                          TopologyManager topologyManager, RuntimeConnection connection,
                                          ClusterSide cluster, EventRecorder recorder, ApiserverClient apiserver,
                                          Clock clock) {
        KubeletFlags flags = server.flags();
        KubeletConfiguration config = server.config();
        Path rootDir = Path.of(flags.rootDirectory());
        NodeContext nodeContext = new NodeContext(node.name(), node.ips(), Path.of(config.podLogsDir()),
                Path.of(flags.containerLogsDir()), flags.podInfraContainerImage(),
                config.clusterDNS() == null ? List.of() : config.clusterDNS(),
                config.clusterDomain() == null || config.clusterDomain().isEmpty() ? "cluster.local" : config.clusterDomain(),
                oom::clamp, Objects.requireNonNullElse(config.resolvConf(), NodeContext.DEFAULT_RESOLV_CONF));
        KubeletSettings settings = KubeletSettings.builder()
                .node(nodeContext)
                .rootDir(rootDir)
                .syncFrequency(config.syncFrequency())
                .relistPeriod(RELIST_PERIOD)
                .gc(GcSettings.of(flags.containerGcPolicy(), ConfigSettings.imageGcPolicy(config)))
                .maxPods(ConfigSettings.podCapacity(config))
                .imagePulls(ConfigSettings.imagePulls(config))
                .nodeCredentials(DockerConfigFiles.SearchPaths.forProcess(rootDir))
                .credentialProviders(flags.credentialProviders())
                .kubeletVersion(KubeletVersion.compatVersion())
                .sources(ConfigSettings.podSources(config))
                .memoryCapacity(HostSetup.memoryCapacity())
                .cpuCfsQuota(!Boolean.FALSE.equals(config.cpuCFSQuota()))
                .cpuCfsQuotaPeriod(config.cpuCFSQuotaPeriod())
                .eviction(server.eviction())
                .featureGates(FeatureGates.of(config))
                .volumeStatsAggPeriod(config.volumeStatsAggPeriod())
                .security(new SecuritySettings(Boolean.TRUE.equals(config.seccompDefault()),
                        Objects.requireNonNullElse(config.allowedUnsafeSysctls(), List.of())))
                .enableControllerAttachDetach(!Boolean.FALSE.equals(config.enableControllerAttachDetach()))
                .build();
        KubeletDeps.Builder deps = KubeletDeps.builder(connection.runtime(), connection.images(), recorder, clock)
                .cluster(cluster).systemContainers(HostSetup.systemContainers(connection.process()))
                .containerManager(containerManager).logManager(connection.logManager())
                .devicePlugins(new RegistrationServer(DevicePluginServer.KUBELET_SOCKET))
                .pluginRegistration(new GrpcPluginRegistrationClient()).topologyManager(topologyManager)
                .csiDrivers(new GrpcCsiDriverClient()).hostMounts(new LinuxMounts());
        cpuManager.ifPresent(deps::cpuManager);
        memoryManager.ifPresent(deps::memoryManager);
        Kubelet kubelet = new Kubelet(settings, deps.build());
        running.add("kubelet", kubelet::stop);
        Optional<CertificateManager> clientCertificates = apiserver.certificates();
        clientCertificates.ifPresent(m -> certificateMetrics.registerClient(kubelet.views().kubeletMetrics(), m, clock));
        if (config.rotateCertificates()) {
            // Renewals go through the apiserver client the node's loops use; the first may be due at once.
            clientCertificates.ifPresent(CertificateManager::start);
        }
        if (kubelet.sourceNames().isEmpty()) {
            log.warn("No pod source: set staticPodPath (--pod-manifest-path), staticPodURL (--manifest-url) or --kubeconfig");
        }
        kubelet.start();
        cluster.startNodeSync(config, new NodeIdentity(node.name(), node.name(), node.ips(), flags.nodeLabels(),
                KubeletVersion.compatVersion()), rootDir, connection.runtime(), connection.images(),
                kubelet.views()::plegHealth, kubelet.views().nodePressure(), kubelet::shutdownStatus,
                kubelet.views()::deviceCapacity, kubelet.views().nodeVolumes(), recorder).ifPresentOrElse(nodeSync -> {
            running.add("node-sync", nodeSync);
            GracefulNodeShutdown.start(config, settings.featureGates(), kubelet, nodeSync::syncNodeStatus, System.getenv());
        }, () -> GracefulNodeShutdown.start(config, settings.featureGates(), kubelet, () -> {}, System.getenv()));
        return kubelet;
    }

    /**
     * Upstream's {@code ListenAndServePodResources}: the pod-resources API on {@code <root-dir>/pod-resources/kubelet.sock}
     * (upstream's kubelet exits when it cannot make the socket).
     */
    private void startPodResourcesServer(Path rootDir, Kubelet kubelet, Clock clock) throws StartupException {
        try {
            running.add("pod-resources-server", PodResourcesServer.start(new PodDirs(rootDir).podResourcesDir(),
                    kubelet.views().podResources(), clock));
        } catch (IOException | RuntimeException e) {
            throw new StartupException("failed to serve the podresources API on " + rootDir.resolve("pod-resources")
                    + ": " + e.getMessage());
        }
    }

    /**
     * The pods come once the secure port's settings are known good (upstream starts its sync loop before its servers
     * too); the servers follow at once.
     */
    private void startPodSources(Kubelet kubelet, StartupStep<Optional<SecureServing.Checked>> securePortChecked)
            throws StartupException {
        securePortChecked.await();
        kubelet.startSources();
        podSources.complete(true);
        log.debug("pod sources started {} ms after process start", sinceProcessStart());
    }

    /** Waits for the pod sources to start (never exceptionally); refuses if the start-up ended before they did. */
    private void awaitPodSources() throws StartupException {
        if (!podSources.join()) {
            throw new StartupException("stopped before the pod sources started");
        }
    }

    /** The serving certificate's manager, then the secure, read-only and cAdvisor ports. */
    private void serve(KubeletServer server, Kubelet kubelet, RuntimeConnection connection, Serving tls, Clock clock)
            throws StartupException {
        tls.certificates().ifPresent(m -> {
            certificateMetrics.registerServer(kubelet.views().kubeletMetrics(), m, clock);
            running.add("serving-certificate-manager", m);
            m.start();
        });
        KubeletServers.start(server, kubelet, connection.runtime(), tls.secure(), healthcheckSlis, verbosity, running);
    }

    static String nodeName(KubeletFlags flags) throws StartupException {
        String name = flags.hostnameOverride();
        if (name == null || name.isEmpty()) {
            try {
                name = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                throw new StartupException("cannot determine the host name (" + e.getMessage()
                        + "); set --hostname-override", e);
            }
        }
        return name.trim().toLowerCase(Locale.ROOT);
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
