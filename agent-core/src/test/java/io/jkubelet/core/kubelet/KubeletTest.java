package io.jkubelet.core.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.images.ImageGCManager;
import io.jkubelet.core.images.ImageGCPolicy;
import io.jkubelet.core.events.LoggingEventRecorder;
import io.jkubelet.core.eviction.EvictionConfig;
import io.jkubelet.core.eviction.ThresholdParser;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.testing.FakeRuntime;
import io.jkubelet.core.testing.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import io.jkubelet.core.config.ConfigAnnotations;
import io.jkubelet.core.config.PodOperation;
import io.jkubelet.core.config.PodUpdate;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.jkubelet.core.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The whole pod life cycle of the core against the fake runtime. */
class KubeletTest {
    @TempDir Path root;
    private final FakeClock clock = new FakeClock();
    private FakeRuntime runtime;
    private LoggingEventRecorder events;
    private Kubelet kubelet;

    @BeforeEach
    void setUp() {
        runtime = new FakeRuntime(clock);
        runtime.addImage("busybox:1.36");
        runtime.addImage("jkubelet/pause:3.9");
        start();
    }

    /** Starts an agent on the same runtime, as a restarted process would. */
    void start() {
        start(KubeletExecutors.named());
    }

    private void start(KubeletExecutors executors) {
        start(executors, TestSettings.under(root));
    }

    private void start(KubeletExecutors executors, KubeletSettings settings) {
        events = new LoggingEventRecorder(clock);
        kubelet = new Kubelet(settings,
                KubeletDeps.builder(runtime, runtime, events, clock).executors(executors).build());
        kubelet.start();
    }

    @AfterEach
    void stop() {
        kubelet.close();
    }

    private static Container sleeper(String name) {
        return new ContainerBuilder().withName(name).withImage("busybox:1.36").withImagePullPolicy("IfNotPresent")
                .withCommand("sleep", "3600").build();
    }

    private Optional<Pod> status(String name) {
        return kubelet.views().pods().stream().filter(p -> p.getMetadata().getName().equals(name)).findFirst();
    }

    private ContainerStatus containerStatus(String pod, String container) {
        return status(pod).orElseThrow().getStatus().getContainerStatuses().stream()
                .filter(c -> c.getName().equals(container)).findFirst().orElseThrow();
    }

    private List<io.jkubelet.core.runtime.Container> containers(ContainerState state) {
        return runtime.listContainers(new ContainerFilter(null, state, null, null));
    }

    @Test
    void addedPodRunsWithSandboxAndReportsRunning() {
        Pod pod = pod("web", sleeper("a"), sleeper("b"));
        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> status("web").map(p -> p.getStatus() != null
                && "Running".equals(p.getStatus().getPhase())
                && p.getStatus().getContainerStatuses().stream().allMatch(ContainerStatus::getReady)).orElse(false));
        assertThat(runtime.listPodSandbox(PodSandboxFilter.ALL)).hasSize(1);
        assertThat(containers(ContainerState.CONTAINER_RUNNING)).hasSize(2);
        var st = status("web").orElseThrow().getStatus();
        assertThat(st.getPodIP()).isNotEmpty();
        assertThat(st.getHostIP()).isEqualTo("192.168.1.10");
        assertThat(st.getStartTime()).isNotNull();
        assertThat(events.events()).extracting(e -> e.reason()).contains("Pulled", "Created", "Started");
        // Logs land where node tooling looks for them.
        assertThat(Files.isDirectory(root.resolve("logs/pods/default_web_uid-web"))).isTrue();
    }

    @Test
    void podTooBigForAllocatableIsRejectedOutOfcpuAndNeverStarted() {
        // A standalone node admits against this machine's own capacity.
        int cpus = Runtime.getRuntime().availableProcessors();
        Container big = new ContainerBuilder(sleeper("a")).withNewResources()
                .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity(Integer.toString(cpus + 1)))
                .endResources().build();
        kubelet.deliver(new PodUpdate(List.of(pod("big", big)), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> status("big").map(p -> p.getStatus() != null
                && "Failed".equals(p.getStatus().getPhase())).orElse(false));
        var st = status("big").orElseThrow().getStatus();
        assertThat(st.getReason()).isEqualTo("OutOfcpu");
        assertThat(st.getMessage()).isEqualTo(
                "Pod was rejected: Node didn't have enough resource: cpu, requested: " + (cpus + 1) * 1000
                        + ", used: 0, capacity: " + cpus * 1000);
        assertThat(events.events()).anyMatch(e -> e.type().equals("Warning") && e.reason().equals("OutOfcpu"));
        // A pod that fits still runs beside it; the rejected one never reached the runtime.
        kubelet.deliver(new PodUpdate(List.of(pod("small", sleeper("a"))), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1);
        assertThat(runtime.listPodSandbox(PodSandboxFilter.ALL)).hasSize(1)
                .allMatch(s -> s.metadata().name().equals("small"));
    }

    @Test
    void podBeyondMaxPodsIsRejectedOutOfpods() {
        kubelet.close();
        start(KubeletExecutors.named(), TestSettings.builder(root).maxPods(1).build());
        kubelet.deliver(new PodUpdate(List.of(pod("first", sleeper("a")), pod("second", sleeper("a"))), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> status("second").map(p -> p.getStatus() != null
                && "Failed".equals(p.getStatus().getPhase())).orElse(false));
        assertThat(status("second").orElseThrow().getStatus().getReason()).isEqualTo("OutOfpods");
        assertThat(status("second").orElseThrow().getStatus().getMessage()).isEqualTo(
                "Pod was rejected: Node didn't have enough resource: pods, requested: 1, used: 1, capacity: 1");
    }

    @Test
    void aPodSettingAnUnsafeSysctlIsRefusedSysctlForbiddenAndAllowedOnesReachTheSandbox() {
        kubelet.close();
        KubeletSettings s = TestSettings.under(root);
        start(KubeletExecutors.named(), s.toBuilder()
                .security(new SecuritySettings(true, List.of("net.core.somaxconn"))).build());

        kubelet.deliver(new PodUpdate(List.of(withSysctls(pod("unsafe", sleeper("a")), "net.ipv4.ip_forward")),
                PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> status("unsafe").map(p -> p.getStatus() != null
                && "Failed".equals(p.getStatus().getPhase())).orElse(false));
        assertThat(status("unsafe").orElseThrow().getStatus().getReason()).isEqualTo("SysctlForbidden");
        assertThat(status("unsafe").orElseThrow().getStatus().getMessage())
                .isEqualTo("Pod was rejected: forbidden sysctl: \"net.ipv4.ip_forward\" not allowlisted");
        assertThat(events.events()).anyMatch(e -> e.type().equals("Warning") && e.reason().equals("SysctlForbidden"));

        kubelet.deliver(new PodUpdate(List.of(withSysctls(pod("tuned", sleeper("a")), "net.core.somaxconn",
                "net.ipv4.ip_unprivileged_port_start")), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1);
        String sandboxId = runtime.listPodSandbox(PodSandboxFilter.ALL).getFirst().id();
        assertThat(runtime.sandboxConfig(sandboxId).sysctls()).containsOnlyKeys("net.core.somaxconn",
                "net.ipv4.ip_unprivileged_port_start");
        // seccompDefault is on in these settings: the container asked for no profile and gets the runtime's default.
        String containerId = containers(ContainerState.CONTAINER_RUNNING).getFirst().id();
        assertThat(runtime.containerConfig(containerId).securityContext().seccomp())
                .isEqualTo(io.jkubelet.core.runtime.SecurityProfile.RUNTIME_DEFAULT);
    }

    @Test
    void anAllowedUnsafeSysctlThatIsNotNamespacedStopsTheKubeletNamingIt() {
        KubeletSettings s = TestSettings.under(root);
        KubeletSettings bad = s.toBuilder().security(new SecuritySettings(false, List.of("kernel.panic"))).build();

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Kubelet(bad,
                        KubeletDeps.builder(runtime, runtime, events, clock).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("allowedUnsafeSysctls: the sysctls \"kernel.panic\" are not known to be namespaced");
    }

    @Test
    void aResolvConfThatCannotBeReadFailsTheSandboxNamingTheFile() {
        kubelet.close();
        KubeletSettings s = TestSettings.under(root);
        var n = s.node();
        Path missing = root.resolve("no-resolv.conf");
        start(KubeletExecutors.named(), s.toBuilder().node(new io.jkubelet.core.kuberuntime.NodeContext(n.nodeName(),
                n.hostIps(), n.podLogsDir(), n.containerLogsDir(), n.podInfraImage(), n.clusterDns(), n.clusterDomain(),
                n.oomScoreClamp(), missing.toString())).build());

        kubelet.deliver(new PodUpdate(List.of(pod("web", sleeper("a"))), PodOperation.ADD, "test"));

        await().atMost(Duration.ofSeconds(10)).until(() -> events.events().stream()
                .anyMatch(e -> e.reason().equals("FailedCreatePodSandBox")));
        assertThat(events.events()).filteredOn(e -> e.reason().equals("FailedCreatePodSandBox")).first()
                .extracting(e -> e.message())
                .isEqualTo("Failed to create pod sandbox: open " + missing + ": no such file or directory");
        assertThat(runtime.listPodSandbox(PodSandboxFilter.ALL)).isEmpty();
        // The periodic check of the file, at start and every 30 s, warns on the node.
        assertThat(events.events()).anyMatch(e -> e.involvedObject().getKind().equals("Node")
                && e.reason().equals("CheckLimitsForResolvConf")
                && e.message().equals("open " + missing + ": no such file or directory"));
    }

    private static Pod withSysctls(Pod pod, String... names) {
        return new PodBuilder(pod).editSpec().withNewSecurityContext()
                .withSysctls(java.util.Arrays.stream(names).map(n -> new io.fabric8.kubernetes.api.model.Sysctl(n, "1"))
                        .toList())
                .endSecurityContext().endSpec().build();
    }

    /**
     * Runs pod {@code crash} of one container {@code a} and makes it exit twice: the first exit is restarted at once,
     * the second is held back 10 s with CrashLoopBackOff.
     */
    private void crashTwice(int firstExitCode, int secondExitCode) {
        kubelet.deliver(new PodUpdate(List.of(pod("crash", sleeper("a"))), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1);
        runtime.exitContainer(containers(ContainerState.CONTAINER_RUNNING).get(0).id(), firstExitCode, "Error");
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1
                && containerStatus("crash", "a").getRestartCount() == 1);
        runtime.exitContainer(containers(ContainerState.CONTAINER_RUNNING).get(0).id(), secondExitCode, "Error");
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            var w = containerStatus("crash", "a").getState().getWaiting();
            return w != null && "CrashLoopBackOff".equals(w.getReason());
        });
    }

    @Test
    void aHealthyPodIsSyncedAgainOnceSyncFrequencyHasPassed() throws Exception {
        kubelet.close();
        start(KubeletExecutors.named(), TestSettings.builder(root).syncFrequency(Duration.ofSeconds(30)).build());
        kubelet.deliver(new PodUpdate(List.of(pod("web", sleeper("a"))), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1
                && status("web").map(p -> "Running".equals(p.getStatus().getPhase())).orElse(false));
        double before = podWorkerRuns("sync");

        // syncFrequency with upstream's jitter of up to 50 % is due by 45 s; the default (1 min) would not be.
        // PodWorkersTest shows it is not due before 30 s.
        clock.advance(Duration.ofSeconds(46));
        await().atMost(Duration.ofSeconds(10)).until(() -> podWorkerRuns("sync") > before);
    }

    /** {@code kubelet_pod_worker_duration_seconds_count} of one operation type, as {@code /metrics} shows it. */
    private double podWorkerRuns(String operationType) throws java.io.IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter.create().write(out,
                kubelet.views().kubeletMetrics().scrape());
        String prefix = "kubelet_pod_worker_duration_seconds_count{operation_type=\"" + operationType + "\"} ";
        return out.toString(java.nio.charset.StandardCharsets.UTF_8).lines().filter(l -> l.startsWith(prefix))
                .mapToDouble(l -> Double.parseDouble(l.substring(prefix.length()))).sum();
    }

    @Test
    void withSidecarContainersOffInFeatureGatesAnInitContainersRestartPolicyIsDroppedAndItMustEndFirst() {
        kubelet.close();
        start(KubeletExecutors.named(), TestSettings.builder(root)
                .featureGates(io.jkubelet.core.apis.config.FeatureGates.of(
                        Map.of(io.jkubelet.core.apis.config.FeatureGates.SIDECAR_CONTAINERS, false))).build());
        Container sidecar = new ContainerBuilder(sleeper("proxy")).withRestartPolicy("Always").build();
        Pod pod = new PodBuilder(pod("side", sleeper("app"))).editSpec().withInitContainers(sidecar).endSpec().build();
        // Through the pod config, which drops what a gate turns off, as a source's pods go.
        kubelet.sourceChannel(io.jkubelet.core.config.PodSources.FILE)
                .send(new PodUpdate(List.of(pod), PodOperation.SET, io.jkubelet.core.config.PodSources.FILE));

        // As an init container without the field, it runs alone and the app waits for it to end.
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1
                && status("side").map(p -> p.getStatus() != null && "Pending".equals(p.getStatus().getPhase())
                        && p.getStatus().getInitContainerStatuses() != null
                        && p.getStatus().getInitContainerStatuses().get(0).getState().getRunning() != null)
                        .orElse(false));
        assertThat(containerStatus("side", "app").getState().getWaiting().getReason()).isEqualTo("PodInitializing");
    }

    @Test
    void crashingContainerBacksOffWithGrowingDelays() {
        crashTwice(1, 1);
        assertThat(containerStatus("crash", "a").getState().getWaiting().getMessage())
                .startsWith("back-off 10s restarting failed container=a pod=crash_default");
        assertThat(containerStatus("crash", "a").getLastState().getTerminated().getExitCode()).isEqualTo(1);
        assertThat(containers(ContainerState.CONTAINER_RUNNING)).isEmpty();

        clock.advance(Duration.ofSeconds(11));
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1
                && containerStatus("crash", "a").getRestartCount() == 2);

        // Third death: now 20 s.
        runtime.exitContainer(containers(ContainerState.CONTAINER_RUNNING).get(0).id(), 1, "Error");
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            var w = containerStatus("crash", "a").getState().getWaiting();
            return w != null && w.getMessage() != null && w.getMessage().startsWith("back-off 20s");
        });
        clock.advance(Duration.ofSeconds(11));
        // Still inside the 20 s: nothing restarts.
        assertThat(containers(ContainerState.CONTAINER_RUNNING)).isEmpty();
        clock.advance(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1);
        assertThat(events.events()).anyMatch(e -> e.reason().equals("BackOff")
                && e.message().equals("Back-off restarting failed container a in pod crash_default(uid-crash)"));
    }

    @Test
    void aCrashLoopingPodsTimelineHasItsStartsExitsAndBackOffInOrder() {
        crashTwice(1, 2);

        var entries = kubelet.views().timelines().find("default", "crash").orElseThrow().entries();
        List<String> story = entries.stream()
                .filter(e -> List.of("Admitted", "Started", "Terminated", "BackOff").contains(e.reason()))
                .map(e -> e.reason() + (e.exitCode() == null ? "" : " " + e.exitCode())).toList();
        assertThat(story).containsExactly("Admitted", "Started", "Terminated 1", "Started", "Terminated 2", "BackOff");
        assertThat(entries).anyMatch(e -> e.reason().equals("Waiting") && e.message().startsWith("CrashLoopBackOff: back-off 10s"));
    }

    @Test
    void aProbesResultGoesIntoThePodsTimeline() {
        runtime.scriptCommand(List.of("ready-check"), io.jkubelet.core.runtime.testing.FakeRuntime.Script.exitsWith(0));
        Container probed = new ContainerBuilder(sleeper("a")).withNewReadinessProbe().withNewExec().withCommand("ready-check")
                .endExec().withPeriodSeconds(1).endReadinessProbe().build();
        kubelet.deliver(new PodUpdate(List.of(pod("probed", probed)), PodOperation.ADD, "test"));

        await().atMost(Duration.ofSeconds(15)).until(() -> kubelet.views().timelines().find("default", "probed").map(t -> t.entries().stream()
                    .anyMatch(e -> e.reason().equals("ProbeResult") && e.message().equals("readiness probe: success")
                            && "a".equals(e.container())))
                    .orElse(false));
    }

    @Test
    void aRuntimeClassOnAStandaloneNodeFailsTheSandboxNamingTheApiserverAndThePodStaysPending() {
        Pod pod = new PodBuilder(pod("sandboxed", sleeper("a"))).editSpec().withRuntimeClassName("gvisor").endSpec()
                .build();
        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.ADD, "test"));

        await().atMost(Duration.ofSeconds(10)).until(() -> events.events().stream()
                .anyMatch(e -> e.reason().equals("FailedCreatePodSandBox")));
        assertThat(events.events()).filteredOn(e -> e.reason().equals("FailedCreatePodSandBox")).first()
                .extracting(e -> e.message()).isEqualTo("Failed to create pod sandbox: RuntimeClass \"gvisor\" needs "
                        + "the apiserver, and this node runs standalone");
        assertThat(runtime.listPodSandbox(PodSandboxFilter.ALL)).isEmpty();
        assertThat(status("sandboxed").orElseThrow().getStatus().getPhase()).isEqualTo("Pending");
    }

    @Test
    void aPodWhoseSandboxCannotStartIsRetriedAfterTheBackOffNotOnEachDeadSandbox() {
        // As runc refuses a privileged pod on a machine whose root lacks capabilities: each try leaves a dead sandbox.
        runtime.failSandboxStarts("unable to apply caps: operation not permitted");
        kubelet.deliver(new PodUpdate(List.of(pod("priv", sleeper("a"))), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> sandboxAttempts() >= 1);

        // The PLEG sees each dead sandbox at once; that must not start the next try before the back-off ends.
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4)).until(() -> sandboxAttempts() == 1);
        assertThat(events.events()).filteredOn(e -> e.reason().equals("FailedCreatePodSandBox")).hasSize(1);

        // backOffPeriod (10 s) with up to 50 % jitter: the next try comes once 15 s have passed.
        clock.advance(Duration.ofSeconds(16));
        await().atMost(Duration.ofSeconds(10)).until(() -> sandboxAttempts() == 2);
    }

    @Test
    void containerGcRemovesTheDeadSandboxesOfAPodThatCannotStartButTheNewest() {
        kubelet.close();
        start(KubeletExecutors.named(), TestSettings.under(root, new GcSettings(Duration.ofMillis(200), GCPolicy.DEFAULT,
                ImageGCManager.PERIOD, ImageGCPolicy.DEFAULT)));
        runtime.failSandboxStarts("unable to apply caps: operation not permitted");
        kubelet.deliver(new PodUpdate(List.of(pod("priv", sleeper("a"))), PodOperation.ADD, "test"));
        // Three attempts, each after the back-off: the clock moves a second at a time until the next attempt comes
        // (whenever the worker set its back-off), and stays still after the third, whose back-off (10 s or more) so
        // never ends: the newest sandbox is the third's.
        for (int tries = 1; tries <= 3; tries++) {
            int expected = tries;
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                if (sandboxAttempts() >= expected) {
                    return true;
                }
                clock.advance(Duration.ofSeconds(1));
                return false;
            });
        }
        String newest = runtime.listPodSandbox(PodSandboxFilter.ALL).stream()
                .max(java.util.Comparator.comparing(io.jkubelet.core.runtime.PodSandbox::createdAt)).orElseThrow().id();

        await().atMost(Duration.ofSeconds(10)).until(() -> runtime.listPodSandbox(PodSandboxFilter.ALL).size() == 1);
        assertThat(runtime.listPodSandbox(PodSandboxFilter.ALL)).singleElement()
                .satisfies(s -> assertThat(s.id()).isEqualTo(newest));
    }

    /** Waits until the pod's status, which follows the runtime by a relist and a sync, has {@code phase}. */
    private void awaitPhase(String name, String phase) {
        await().atMost(Duration.ofSeconds(10)).until(() -> status(name).map(p -> p.getStatus() != null
                && phase.equals(p.getStatus().getPhase())).orElse(false));
    }

    private long sandboxAttempts() {
        return runtime.calls().stream().filter("runPodSandbox"::equals).count();
    }

    @Test
    void onFailurePodEndsSucceeded() {
        Pod pod = pod("job", "OnFailure", List.of(), List.of(sleeper("a")));
        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1);
        runtime.exitContainer(containers(ContainerState.CONTAINER_RUNNING).get(0).id(), 0, "Completed");
        await().atMost(Duration.ofSeconds(10)).until(() -> "Succeeded".equals(status("job").orElseThrow().getStatus().getPhase()));
        assertThat(containerStatus("job", "a").getState().getTerminated().getReason()).isEqualTo("Completed");
    }

    @Test
    void removedPodIsStoppedAndCleanedUp() {
        Pod pod = pod("gone", sleeper("a"));
        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1);
        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.REMOVE, "test"));
        await().atMost(Duration.ofSeconds(15)).until(() -> runtime.listContainers(ContainerFilter.ALL).isEmpty()
                && runtime.listPodSandbox(PodSandboxFilter.ALL).isEmpty());
        assertThat(kubelet.views().pods()).isEmpty();
        assertThat(runtime.calls()).contains("stopContainer", "stopPodSandbox", "removeContainer", "removePodSandbox");
        await().atMost(Duration.ofSeconds(10)).until(() -> !Files.exists(root.resolve("kubelet/pods/uid-gone"))
                && !Files.exists(root.resolve("logs/pods/default_gone_uid-gone")));
        assertThat(events.events()).anyMatch(e -> e.reason().equals("Killing") && e.message().equals("Stopping container a"));
        // The event keeps upstream's text; the pod's timeline also says what grace the kill had (the spec's default 30 s).
        assertThat(kubelet.views().timelines().find("default", "gone").orElseThrow().entries())
                .anyMatch(e -> e.reason().equals("Killing") && e.message().equals("Stopping container a (grace period 30 s)"));
    }

    @Test
    void podRemovedAndAddedBackRunsAgain() {
        Pod pod = pod("back", sleeper("a"));
        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1);
        String first = containers(ContainerState.CONTAINER_RUNNING).get(0).id();
        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.REMOVE, "test"));
        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(15)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1
                && !containers(ContainerState.CONTAINER_RUNNING).get(0).id().equals(first));
        await().atMost(Duration.ofSeconds(10)).until(() -> status("back").map(p -> p.getStatus() != null
                && "Running".equals(p.getStatus().getPhase())).orElse(false));
    }

    @Test
    void editedContainerRestartsAlone() {
        Pod pod = pod("edit", sleeper("a"), sleeper("b"));
        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 2);
        String aId = containers(ContainerState.CONTAINER_RUNNING).stream()
                .filter(c -> c.metadata().name().equals("a")).findFirst().orElseThrow().id();
        Pod edited = new PodBuilder(pod).editSpec().editLastContainer().withCommand("sleep", "7200").endContainer().endSpec().build();
        kubelet.deliver(new PodUpdate(List.of(edited), PodOperation.UPDATE, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).stream()
                .anyMatch(c -> c.metadata().name().equals("b") && c.metadata().attempt() == 1));
        assertThat(containers(ContainerState.CONTAINER_RUNNING)).extracting(c -> c.id()).contains(aId);
        assertThat(runtime.listPodSandbox(PodSandboxFilter.ALL)).hasSize(1);
    }

    @Test
    void restartedAgentRestartsNothing() {
        Pod pod = pod("keep", sleeper("a"));
        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1);
        String id = containers(ContainerState.CONTAINER_RUNNING).get(0).id();
        kubelet.close();
        runtime.clearCalls();
        start();
        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> status("keep").map(p -> p.getStatus() != null
                && "Running".equals(p.getStatus().getPhase())).orElse(false));
        assertThat(containers(ContainerState.CONTAINER_RUNNING)).extracting(c -> c.id()).containsExactly(id);
        assertThat(runtime.calls()).doesNotContain("createContainer", "runPodSandbox", "stopContainer");
    }

    @Test
    void aPodPastItsActiveDeadlineFailsWithDeadlineExceededAndItsContainersAreKilled() {
        Pod pod = new PodBuilder(pod("job", sleeper("a"))).editSpec().withActiveDeadlineSeconds(30L).endSpec().build();
        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.ADD, "test"));
        awaitPhase("job", "Running");
        clock.advance(Duration.ofSeconds(20));
        assertThat(status("job").orElseThrow().getStatus().getPhase()).isEqualTo("Running");
        clock.advance(Duration.ofSeconds(11));
        await().atMost(Duration.ofSeconds(10)).until(() -> "Failed".equals(status("job").orElseThrow().getStatus().getPhase()));
        var st = status("job").orElseThrow().getStatus();
        assertThat(st.getReason()).isEqualTo("DeadlineExceeded");
        assertThat(st.getMessage()).isEqualTo("Pod was active on the node longer than the specified deadline");
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).isEmpty());
        assertThat(events.events()).filteredOn(e -> e.reason().equals("DeadlineExceeded")).hasSize(1)
                .allMatch(e -> e.type().equals("Normal"));
        // Failed for good: nothing restarts it.
        clock.advance(Duration.ofMinutes(2));
        assertThat(containers(ContainerState.CONTAINER_RUNNING)).isEmpty();
    }

    @Test
    void aDeadlineShortenedByAnUpdateTakesEffect() {
        Pod pod = new PodBuilder(pod("long", sleeper("a"))).editSpec().withActiveDeadlineSeconds(3600L).endSpec().build();
        kubelet.deliver(new PodUpdate(List.of(pod), PodOperation.ADD, "test"));
        awaitPhase("long", "Running");
        clock.advance(Duration.ofSeconds(60));
        assertThat(status("long").orElseThrow().getStatus().getPhase()).isEqualTo("Running");
        kubelet.deliver(new PodUpdate(List.of(new PodBuilder(pod).editSpec().withActiveDeadlineSeconds(10L).endSpec().build()), PodOperation.UPDATE, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> "Failed".equals(status("long").orElseThrow().getStatus().getPhase()));
        assertThat(status("long").orElseThrow().getStatus().getReason()).isEqualTo("DeadlineExceeded");
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).isEmpty());
    }

    @Test
    void podsRunOnTheThreadsTheKubeletIsGivenAndItsStopShutsThemAllDown() throws Exception {
        kubelet.close();
        CountingExecutor workers = new CountingExecutor(Executors.newVirtualThreadPerTaskExecutor());
        KubeletExecutors named = KubeletExecutors.named();
        KubeletExecutors given = new KubeletExecutors(workers, named.timers(), named.pleg(), named.probeTicker(),
                named.probes(), named.stats(), named.eviction(), named.volumes(), named.volumeStats());
        start(given);
        kubelet.deliver(new PodUpdate(List.of(pod("web", sleeper("a"))), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1);
        assertThat(workers.executed.get()).isPositive();

        kubelet.close();
        assertThat(List.of(given.podWorkers(), given.timers(), given.pleg(), given.probeTicker(), given.probes(),
                given.stats(), given.eviction(), given.volumes(), given.volumeStats())).allMatch(ExecutorService::isShutdown);
        // As upstream, stopping the kubelet leaves the pod's containers running for the next start.
        assertThat(containers(ContainerState.CONTAINER_RUNNING)).hasSize(1);
        start();
    }

    /** A pod as the apiserver source gives it (not static, so it can be evicted), with one sleeping container. */
    private static Pod apiPod(String name, String memoryRequest) {
        Container c = new ContainerBuilder().withName("app").withImage("busybox:1.36").withImagePullPolicy("IfNotPresent")
                .withCommand("sleep", "3600").build();
        if (memoryRequest != null) {
            c = new ContainerBuilder(c).withNewResources()
                    .addToRequests("memory", new Quantity(memoryRequest)).endResources()
                    .build();
        }
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .addToAnnotations(ConfigAnnotations.CONFIG_SOURCE, "api").endMetadata()
                .withNewSpec().withContainers(c).withTerminationGracePeriodSeconds(30L).endSpec().build();
    }

    /**
     * The eviction manager in the assembled core: the node's real memory is always below the hard threshold this
     * node gets (1Ei), so it is under memory pressure from its first stats round.
     */
    @Test
    void underMemoryPressureABestEffortPodIsRefusedAndARunningPodIsEvicted() {
        kubelet.close();
        start(KubeletExecutors.named(), TestSettings.under(root, new EvictionConfig(ThresholdParser.parseThresholdConfig(
                List.of(), Map.of("memory.available", "1Ei"), Map.of(), Map.of(), Map.of()), Duration.ofMinutes(5), 0)));
        await().atMost(Duration.ofSeconds(10)).until(() -> kubelet.views().nodePressure().memoryPressure());

        kubelet.deliver(new PodUpdate(List.of(apiPod("best-effort", null)), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> status("best-effort").map(p -> "Failed".equals(p.getStatus().getPhase()))
                .orElse(false));
        assertThat(status("best-effort").orElseThrow().getStatus().getReason()).isEqualTo("Evicted");
        assertThat(status("best-effort").orElseThrow().getStatus().getMessage())
                .isEqualTo("Pod was rejected: The node had condition: [MemoryPressure]. ");

        // A Burstable pod is admitted under memory pressure, then evicted on the next round's fresh stats.
        kubelet.deliver(new PodUpdate(List.of(apiPod("burstable", "10Mi")), PodOperation.ADD, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> containers(ContainerState.CONTAINER_RUNNING).size() == 1);
        clock.advance(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(30)).until(() -> status("burstable").map(p -> "Failed".equals(p.getStatus().getPhase()))
                .orElse(false) && containers(ContainerState.CONTAINER_RUNNING).isEmpty());
        PodStatus evicted = status("burstable").orElseThrow().getStatus();
        assertThat(evicted.getReason()).isEqualTo("Evicted");
        assertThat(evicted.getMessage()).startsWith("The node was low on resource: memory. Threshold quantity: 1Ei, available: ");
        assertThat(evicted.getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("DisruptionTarget");
            assertThat(c.getReason()).isEqualTo("TerminationByKubelet");
        });
        assertThat(events.events()).anyMatch(e -> e.reason().equals("EvictionThresholdMet")
                && e.message().equals("Attempting to reclaim memory"));
        assertThat(events.events()).anyMatch(e -> e.reason().equals("Evicted") && e.message().equals(evicted.getMessage()));
    }

    /** An executor that counts what it is given to run. */
    private static final class CountingExecutor extends AbstractExecutorService {
        private final ExecutorService delegate;
        final AtomicInteger executed = new AtomicInteger();

        CountingExecutor(ExecutorService delegate) {
            this.delegate = delegate;
        }

        @Override
        public void execute(Runnable task) {
            executed.incrementAndGet();
            delegate.execute(task);
        }

        @Override
        public void shutdown() {
            delegate.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            return delegate.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return delegate.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return delegate.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return delegate.awaitTermination(timeout, unit);
        }
    }
}
