package io.jkubelet.core.runtime.testing;

import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.ContainerStatus;
import io.jkubelet.core.runtime.ExecResult;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.ImagePullException;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.KeyValue;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.runtime.NamespaceMode;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.PodSandboxState;
import io.jkubelet.core.runtime.PodSandboxStatus;
import io.jkubelet.core.runtime.RuntimeEvent;
import io.jkubelet.core.runtime.RuntimeService;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every implementation of the runtime port must do alike, run against {@link FakeRuntime} and the
 * Docker adapter so that the fake the core is tested with cannot drift from the real runtime.
 *
 * <p>Each test scopes what it creates with the label {@code io.jkubelet.node.name=contract-test-<random>}
 * and removes all of it afterwards, so that the suite can share an engine with other users. Commands are
 * those of busybox; a fake learns how they behave through {@link #scriptCommand}.
 */
public abstract class RuntimeServiceContract {

    /** A process that runs until it gets SIGTERM, then exits 0 at once. */
    protected static final List<String> LONG_RUNNING = List.of("sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait");
    protected static final List<String> EXIT_0 = List.of("sh", "-c", "exit 0");
    protected static final List<String> EXIT_3 = List.of("sh", "-c", "exit 3");
    protected static final List<String> NO_SUCH_EXECUTABLE = List.of("/no/such/executable");
    protected static final List<String> PRINTS_AND_EXITS_7 = List.of("sh", "-c", "echo out; echo err >&2; exit 7");
    protected static final List<String> SLEEPS_30S = List.of("sleep", "30");
    /** Outlasts a second, the timeout a lifecycle hook's exec once got on containerd. */
    protected static final List<String> SLEEPS_2S_AND_EXITS_5 = List.of("sh", "-c", "sleep 2; echo done; exit 5");

    protected String nodeName;
    protected Path logRoot;
    private final List<String> cgroupParents = new ArrayList<>();
    private final List<String> imagesToRemove = new ArrayList<>();

    /** The runtime under test. */
    protected abstract RuntimeService runtime();

    /** The same runtime's images. */
    protected abstract ImageService images();

    /** A local image with busybox's applets and no default command. */
    protected abstract String busyboxImage();

    /** A local sandbox (pause) image. */
    protected abstract String pauseImage();

    /** Makes a local image that no one else uses, tagged {@code reference}; returns its id. */
    protected String createUniqueImage(String reference) {
        return createUniqueImage(reference, "");
    }

    /**
     * Makes a local image that no one else uses, tagged {@code reference}, whose configuration names
     * {@code configUser} as its user (a Dockerfile's {@code USER}; empty for none); returns its id.
     */
    protected abstract String createUniqueImage(String reference, String configUser);

    /** Gives the image {@code existing} names one more tag, {@code reference} (as {@code docker tag}). */
    protected abstract void tagImage(String existing, String reference);

    /** Tells the runtime how a command line behaves; a real runtime runs it, so by default nothing. */
    protected void scriptCommand(List<String> commandLine, FakeRuntime.Script script) {
    }

    /** A runtime handler this runtime has besides the default (a RuntimeClass's {@code handler} that runs on it). */
    protected abstract String configuredRuntimeHandler();

    /**
     * A cgroup parent this runtime accepts, named after {@code unique} so that no one else uses it, or null when
     * this runtime's host cannot give one (the test is then skipped).
     */
    protected String testCgroupParent(String unique) {
        return "/" + unique + "/pod1";
    }

    /** Removes what the runtime made for {@link #testCgroupParent} once its containers are gone. */
    protected void removeTestCgroupParent(String parent) throws IOException {
    }

    /**
     * The reason a container whose process could not be started gets: dockershim's {@code ContainerCannotRun} on
     * Docker, {@code StartError} on containerd (what upstream's kubelet shows there).
     */
    protected String cannotRunReason() {
        return "ContainerCannotRun";
    }

    /**
     * The name this runtime lists an image by that was tagged {@code reference}: as given on Docker, fully
     * qualified ({@code docker.io/...}) on a CRI runtime. Tests tag and look up images by this name.
     */
    protected String imageName(String reference) {
        return reference;
    }

    /** How long to wait for something a real runtime does asynchronously. */
    protected Duration patience() {
        return Duration.ofSeconds(30);
    }

    @BeforeEach
    void prepareContract() throws IOException {
        nodeName = "contract-test-" + UUID.randomUUID().toString().substring(0, 8);
        logRoot = Files.createTempDirectory("jkubelet-contract-logs");
        scriptCommand(LONG_RUNNING, FakeRuntime.Script.runsForever().exitingOnTermWith(0));
        scriptCommand(EXIT_0, FakeRuntime.Script.exitsWith(0));
        scriptCommand(EXIT_3, FakeRuntime.Script.exitsWith(3));
        scriptCommand(NO_SUCH_EXECUTABLE, FakeRuntime.Script.failsToStart(127,
                "exec: \"/no/such/executable\": stat /no/such/executable: no such file or directory"));
        scriptCommand(PRINTS_AND_EXITS_7, FakeRuntime.Script.prints("out\n", "err\n", 7));
        scriptCommand(SLEEPS_30S, FakeRuntime.Script.exitsWith(0).lasting(Duration.ofSeconds(30)));
        scriptCommand(SLEEPS_2S_AND_EXITS_5, FakeRuntime.Script.prints("done\n", "", 5).lasting(Duration.ofSeconds(2)));
    }

    @AfterEach
    void removeEverythingThisTestCreated() throws IOException {
        try {
            RuntimePods.removeAll(runtime(), nodeName);
            for (String parent : cgroupParents) {
                removeTestCgroupParent(parent);
            }
            for (String image : imagesToRemove) {
                images().removeImage(image);
            }
        } finally {
            try (Stream<Path> paths = Files.walk(logRoot)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    // ------------------------------------------------------------------ sandboxes

    @Test
    void runPodSandboxGivesAReadySandboxWithAnIpAndItsMetadataLabelsAndAnnotations() {
        PodSandboxConfig config = sandboxConfig("web");

        String id = runtime().runPodSandbox(config);

        PodSandboxStatus status = runtime().podSandboxStatus(id);
        assertThat(status.id()).isEqualTo(id);
        assertThat(status.state()).isEqualTo(PodSandboxState.SANDBOX_READY);
        assertThat(status.metadata()).isEqualTo(config.metadata());
        assertThat(status.labels()).isEqualTo(config.labels());
        assertThat(status.annotations()).isEqualTo(config.annotations());
        assertThat(status.ip()).isNotEmpty();
        assertThat(status.createdAt()).isNotNull();
        assertThat(status.namespaceOptions().network()).isEqualTo(NamespaceMode.POD);
    }

    @Test
    void aSandboxRunsWithAHandlerTheRuntimeHas() {
        String id = runtime().runPodSandbox(sandboxConfig("handled"), configuredRuntimeHandler());

        assertThat(runtime().podSandboxStatus(id).state()).isEqualTo(PodSandboxState.SANDBOX_READY);
    }

    @Test
    void aHandlerTheRuntimeDoesNotHaveIsRefusedNamingItAndLeavesNoSandbox() {
        assertThatThrownBy(() -> runtime().runPodSandbox(sandboxConfig("unhandled"), "jk-no-such-handler"))
                .hasMessageContaining("\"jk-no-such-handler\"");

        assertThat(runtime().listPodSandbox(mine(null, null, Map.of()))).isEmpty();
    }

    @Test
    void sandboxOnTheNodeNetworkHasNoPodIp() {
        // As the kubelet sends it: no hostname of its own on the node's network (runc refuses one without a UTS
        // namespace).
        PodSandboxConfig nodeNetwork = withNamespaces(sandboxConfig("hostnet"),
                new NamespaceOptions(NamespaceMode.NODE, NamespaceMode.CONTAINER, NamespaceMode.POD));
        PodSandboxConfig config = new PodSandboxConfig(nodeNetwork.metadata(), "", nodeNetwork.logDirectory(),
                nodeNetwork.dnsConfig(), nodeNetwork.portMappings(), nodeNetwork.labels(), nodeNetwork.annotations(),
                nodeNetwork.cgroupParent(), nodeNetwork.namespaceOptions(), nodeNetwork.oomScoreAdj(),
                nodeNetwork.image(), nodeNetwork.privileged(), nodeNetwork.sysctls());

        String id = runtime().runPodSandbox(config);

        PodSandboxStatus status = runtime().podSandboxStatus(id);
        assertThat(status.state()).isEqualTo(PodSandboxState.SANDBOX_READY);
        assertThat(status.ip()).isEmpty();
        assertThat(status.namespaceOptions().network()).isEqualTo(NamespaceMode.NODE);
    }

    @Test
    void containersOfASandboxWithACgroupParentRunInACgroupBelowIt() {
        String parent = testCgroupParent(nodeName);
        org.junit.jupiter.api.Assumptions.assumeTrue(parent != null, "this runtime's host gives no cgroup parent");
        cgroupParents.add(parent);
        PodSandboxConfig sandbox = withCgroupParent(sandboxConfig("cgroups"), parent);
        String sandboxId = runtime().runPodSandbox(sandbox);

        String id = createAndStart(sandboxId, containerConfig("app", LONG_RUNNING, sandbox), sandbox);
        ExecResult cgroups = runtime().execSync(id, FakeRuntime.PROC_SELF_CGROUP, Duration.ofSeconds(10));

        // One line per hierarchy, e.g. "4:memory:/parent/<container>": each inside the parent.
        String out = new String(cgroups.stdout(), StandardCharsets.UTF_8);
        assertThat(cgroups.exitCode()).isZero();
        assertThat(out.lines()).isNotEmpty().allMatch(line -> line.contains(":" + parent + "/"));
    }

    @Test
    void listPodSandboxFiltersByIdStateAndLabels() {
        PodSandboxConfig a = sandboxConfig("a");
        PodSandboxConfig b = sandboxConfig("b");
        String idA = runtime().runPodSandbox(a);
        String idB = runtime().runPodSandbox(b);
        runtime().stopPodSandbox(idB);

        assertThat(ids(runtime().listPodSandbox(mine(null, null, Map.of())))).containsExactlyInAnyOrder(idA, idB);
        assertThat(ids(runtime().listPodSandbox(mine(idA, null, Map.of())))).containsExactly(idA);
        assertThat(ids(runtime().listPodSandbox(mine(null, PodSandboxState.SANDBOX_READY, Map.of()))))
                .containsExactly(idA);
        assertThat(ids(runtime().listPodSandbox(mine(null, PodSandboxState.SANDBOX_NOTREADY, Map.of()))))
                .containsExactly(idB);
        assertThat(ids(runtime().listPodSandbox(mine(null, null, Map.of(Labels.POD_UID, b.metadata().uid())))))
                .containsExactly(idB);

        PodSandbox listed = runtime().listPodSandbox(mine(idA, null, Map.of())).getFirst();
        assertThat(listed.metadata()).isEqualTo(a.metadata());
        assertThat(listed.state()).isEqualTo(PodSandboxState.SANDBOX_READY);
        assertThat(listed.labels()).isEqualTo(a.labels());
        assertThat(listed.annotations()).isEqualTo(a.annotations());
    }

    @Test
    void stopPodSandboxStopsItsContainersAndIsIdempotent() {
        PodSandboxConfig sandbox = sandboxConfig("stopper");
        String sandboxId = runtime().runPodSandbox(sandbox);
        String containerId = createAndStart(sandboxId, containerConfig("app", LONG_RUNNING, sandbox), sandbox);

        runtime().stopPodSandbox(sandboxId);

        PodSandboxStatus status = runtime().podSandboxStatus(sandboxId);
        assertThat(status.state()).isEqualTo(PodSandboxState.SANDBOX_NOTREADY);
        assertThat(status.ip()).isEmpty();
        assertThat(runtime().containerStatus(containerId).state()).isEqualTo(ContainerState.CONTAINER_EXITED);
        assertThatCode(() -> runtime().stopPodSandbox(sandboxId)).doesNotThrowAnyException();
    }

    @Test
    void removePodSandboxRemovesItAndItsContainersAndIsIdempotent() {
        PodSandboxConfig sandbox = sandboxConfig("remover");
        String sandboxId = runtime().runPodSandbox(sandbox);
        String containerId = createAndStart(sandboxId, containerConfig("app", LONG_RUNNING, sandbox), sandbox);

        runtime().removePodSandbox(sandboxId);

        assertThatThrownBy(() -> runtime().podSandboxStatus(sandboxId)).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> runtime().containerStatus(containerId)).isInstanceOf(NotFoundException.class);
        assertThat(runtime().listPodSandbox(mine(null, null, Map.of()))).isEmpty();
        assertThat(runtime().listContainers(new ContainerFilter(null, null, sandboxId, null))).isEmpty();
        assertThatCode(() -> runtime().removePodSandbox(sandboxId)).doesNotThrowAnyException();
    }

    // ------------------------------------------------------------------ containers

    @Test
    void containerIsCreatedThenRunningWithItsMetadataLabelsAnnotationsAndLogPath() {
        PodSandboxConfig sandbox = sandboxConfig("life");
        String sandboxId = runtime().runPodSandbox(sandbox);
        ContainerConfig config = containerConfig("app", LONG_RUNNING, sandbox);

        String id = runtime().createContainer(sandboxId, config, sandbox);

        ContainerStatus created = runtime().containerStatus(id);
        assertThat(created.state()).isEqualTo(ContainerState.CONTAINER_CREATED);
        assertThat(created.metadata()).isEqualTo(config.metadata());
        assertThat(created.labels()).isEqualTo(config.labels());
        assertThat(created.annotations()).isEqualTo(config.annotations());
        assertThat(created.image()).isEqualTo(busyboxImage());
        assertThat(created.imageRef()).isNotEmpty();
        assertThat(created.logPath()).isEqualTo(Path.of(sandbox.logDirectory(), "app", "0.log").toString());
        assertThat(created.createdAt()).isNotNull();
        assertThat(created.startedAt()).isNull();
        assertThat(created.finishedAt()).isNull();

        runtime().startContainer(id);

        ContainerStatus running = runtime().containerStatus(id);
        assertThat(running.state()).isEqualTo(ContainerState.CONTAINER_RUNNING);
        assertThat(running.startedAt()).isNotNull();
        assertThat(running.finishedAt()).isNull();
        assertThat(running.reason()).isEmpty();

        Container listed = runtime().listContainers(new ContainerFilter(id, null, null, null)).getFirst();
        assertThat(listed.podSandboxId()).isEqualTo(sandboxId);
        assertThat(listed.metadata()).isEqualTo(config.metadata());
        assertThat(listed.state()).isEqualTo(ContainerState.CONTAINER_RUNNING);
        assertThat(listed.labels()).isEqualTo(config.labels());
        assertThat(listed.annotations()).isEqualTo(config.annotations());
        assertThat(listed.image()).isEqualTo(busyboxImage());
        assertThat(listed.imageRef()).isNotEmpty();
    }

    @Test
    void exitedContainerReportsItsExitCodeAndReason() {
        PodSandboxConfig sandbox = sandboxConfig("exits");
        String sandboxId = runtime().runPodSandbox(sandbox);
        String completed = createAndStart(sandboxId, containerConfig("ok", EXIT_0, sandbox), sandbox);
        String failed = createAndStart(sandboxId, containerConfig("bad", EXIT_3, sandbox), sandbox);

        ContainerStatus ok = awaitExited(completed);
        ContainerStatus bad = awaitExited(failed);

        assertThat(ok.exitCode()).isZero();
        assertThat(ok.reason()).isEqualTo("Completed");
        // Only "set": Docker may record a quick process's finish a hair before the start it records after it.
        assertThat(ok.startedAt()).isNotNull();
        assertThat(ok.finishedAt()).isNotNull();
        assertThat(bad.exitCode()).isEqualTo(3);
        assertThat(bad.reason()).isEqualTo("Error");
    }

    @Test
    void containerWhoseProcessCannotStartIsReportedAsContainerCannotRun() {
        PodSandboxConfig sandbox = sandboxConfig("cannotrun");
        String sandboxId = runtime().runPodSandbox(sandbox);
        String id = runtime().createContainer(sandboxId, containerConfig("app", NO_SUCH_EXECUTABLE, sandbox), sandbox);

        assertThatThrownBy(() -> runtime().startContainer(id)).isInstanceOf(RuntimeException.class)
                .hasMessageContaining(id);

        ContainerStatus status = runtime().containerStatus(id);
        assertThat(status.state()).isEqualTo(ContainerState.CONTAINER_EXITED);
        assertThat(status.reason()).isEqualTo(cannotRunReason());
        assertThat(status.message()).contains("/no/such/executable");
        assertThat(status.exitCode()).isNotZero();
    }

    @Test
    void stopContainerSendsTheStopSignalAndStopAndRemoveAreIdempotent() {
        PodSandboxConfig sandbox = sandboxConfig("stops");
        String sandboxId = runtime().runPodSandbox(sandbox);
        String id = createAndStart(sandboxId, containerConfig("app", LONG_RUNNING, sandbox), sandbox);

        runtime().stopContainer(id, Duration.ofSeconds(10));

        ContainerStatus stopped = runtime().containerStatus(id);
        assertThat(stopped.state()).isEqualTo(ContainerState.CONTAINER_EXITED);
        assertThat(stopped.exitCode()).isZero();
        assertThat(stopped.reason()).isEqualTo("Completed");
        assertThatCode(() -> runtime().stopContainer(id, Duration.ofSeconds(10))).doesNotThrowAnyException();

        runtime().removeContainer(id);

        assertThatThrownBy(() -> runtime().containerStatus(id)).isInstanceOf(NotFoundException.class);
        assertThat(runtime().listContainers(new ContainerFilter(id, null, null, null))).isEmpty();
        assertThatCode(() -> runtime().removeContainer(id)).doesNotThrowAnyException();
    }

    @Test
    void listContainersFiltersByIdStateSandboxAndLabels() {
        PodSandboxConfig first = sandboxConfig("first");
        PodSandboxConfig second = sandboxConfig("second");
        String sandbox1 = runtime().runPodSandbox(first);
        String sandbox2 = runtime().runPodSandbox(second);
        String running = createAndStart(sandbox1, containerConfig("runs", LONG_RUNNING, first), first);
        String created = runtime().createContainer(sandbox1, containerConfig("waits", LONG_RUNNING, first), first);
        String other = createAndStart(sandbox2, containerConfig("other", LONG_RUNNING, second), second);
        runtime().stopContainer(other, Duration.ofSeconds(10));

        assertThat(ids(runtime().listContainers(new ContainerFilter(running, null, null, null))))
                .containsExactly(running);
        assertThat(ids(runtime().listContainers(new ContainerFilter(null, null, sandbox1, null))))
                .containsExactlyInAnyOrder(running, created);
        assertThat(ids(runtime().listContainers(mineContainers(ContainerState.CONTAINER_RUNNING))))
                .containsExactly(running);
        assertThat(ids(runtime().listContainers(mineContainers(ContainerState.CONTAINER_CREATED))))
                .containsExactly(created);
        assertThat(ids(runtime().listContainers(mineContainers(ContainerState.CONTAINER_EXITED))))
                .containsExactly(other);
        assertThat(ids(runtime().listContainers(ContainerFilter.forPodUid(second.metadata().uid()))))
                .containsExactly(other);
        assertThat(ids(runtime().listContainers(new ContainerFilter(null, null, null,
                Map.of(Labels.NODE_NAME, nodeName, Labels.CONTAINER_NAME, "waits")))))
                .containsExactly(created);
    }

    @Test
    void listsDoNotMixSandboxesAndContainers() {
        PodSandboxConfig sandbox = sandboxConfig("mix");
        String sandboxId = runtime().runPodSandbox(sandbox);
        String containerId = createAndStart(sandboxId, containerConfig("app", LONG_RUNNING, sandbox), sandbox);

        assertThat(ids(runtime().listContainers(mineContainers(null)))).containsExactly(containerId);
        assertThat(ids(runtime().listPodSandbox(mine(null, null, Map.of())))).containsExactly(sandboxId);
    }

    @Test
    void containerStatusReportsItsMounts() throws IOException {
        PodSandboxConfig sandbox = sandboxConfig("mounts");
        String sandboxId = runtime().runPodSandbox(sandbox);
        Path data = Files.createDirectories(logRoot.resolve("volume-data"));
        Mount mount = new Mount("/data", data.toString(), true);
        ContainerConfig config = withMounts(containerConfig("app", LONG_RUNNING, sandbox), List.of(mount));

        String id = createAndStart(sandboxId, config, sandbox);

        assertThat(runtime().containerStatus(id).mounts()).containsExactly(mount);
    }

    @Test
    void createContainerWithAnAbsentImageFailsAsNotFound() {
        PodSandboxConfig sandbox = sandboxConfig("noimage");
        String sandboxId = runtime().runPodSandbox(sandbox);
        ContainerConfig config = withImage(containerConfig("app", LONG_RUNNING, sandbox),
                "contract-test-absent/" + nodeName + ":1");

        assertThatThrownBy(() -> runtime().createContainer(sandboxId, config, sandbox))
                .isInstanceOf(NotFoundException.class);
    }

    @Test
    void unknownIdsAreNotFound() {
        String unknown = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
        PodSandboxConfig sandbox = sandboxConfig("unknown");

        assertThatThrownBy(() -> runtime().podSandboxStatus(unknown)).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> runtime().stopPodSandbox(unknown)).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> runtime().containerStatus(unknown)).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> runtime().startContainer(unknown)).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> runtime().stopContainer(unknown, Duration.ofSeconds(1)))
                .isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> runtime().execSync(unknown, List.of("true"), Duration.ofSeconds(1)))
                .isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> runtime().createContainer(unknown, containerConfig("app", LONG_RUNNING, sandbox),
                sandbox)).isInstanceOf(NotFoundException.class);
        assertThatCode(() -> runtime().removeContainer(unknown)).doesNotThrowAnyException();
        assertThatCode(() -> runtime().removePodSandbox(unknown)).doesNotThrowAnyException();
    }

    // ------------------------------------------------------------------ exec

    @Test
    void execSyncCapturesStdoutStderrAndTheExitCode() {
        PodSandboxConfig sandbox = sandboxConfig("exec");
        String sandboxId = runtime().runPodSandbox(sandbox);
        String id = createAndStart(sandboxId, containerConfig("app", LONG_RUNNING, sandbox), sandbox);

        ExecResult result = runtime().execSync(id, PRINTS_AND_EXITS_7, Duration.ofSeconds(20));

        assertThat(result.timedOut()).isFalse();
        assertThat(result.exitCode()).isEqualTo(7);
        assertThat(new String(result.stdout(), StandardCharsets.UTF_8)).isEqualTo("out\n");
        assertThat(new String(result.stderr(), StandardCharsets.UTF_8)).isEqualTo("err\n");
    }

    @Test
    void streamingExecWritesStdoutAndStderrApartAndReturnsTheExitCode() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(runtime().streamingRuntime().isEmpty(),
                "sessions on a runtime's streaming server are proxied by the kubelet's server (ContainerdStreamingIT)");
        PodSandboxConfig sandbox = sandboxConfig("stream");
        String sandboxId = runtime().runPodSandbox(sandbox);
        String id = createAndStart(sandboxId, containerConfig("app", LONG_RUNNING, sandbox), sandbox);
        java.io.ByteArrayOutputStream stdout = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream stderr = new java.io.ByteArrayOutputStream();

        int exitCode = runtime().exec(id, PRINTS_AND_EXITS_7,
                new io.jkubelet.core.runtime.StreamingIo(null, stdout, stderr, false, null));

        assertThat(exitCode).isEqualTo(7);
        assertThat(stdout.toString(StandardCharsets.UTF_8)).isEqualTo("out\n");
        assertThat(stderr.toString(StandardCharsets.UTF_8)).isEqualTo("err\n");
    }

    @Test
    void streamingExecInAnUnknownContainerIsNotFound() {
        if (runtime().streamingRuntime().isPresent()) {
            assertThatThrownBy(() -> runtime().streamingRuntime().get().getExec("0123456789abcdef-unknown", List.of("true"),
                    false, true, false, false)).isInstanceOf(NotFoundException.class);
            return;
        }
        assertThatThrownBy(() -> runtime().exec("0123456789abcdef-unknown", List.of("true"),
                new io.jkubelet.core.runtime.StreamingIo(null, new java.io.ByteArrayOutputStream(), null, false, null)))
                .isInstanceOf(NotFoundException.class);
    }

    @Test
    void execSyncStopsWaitingAtTheTimeout() {
        PodSandboxConfig sandbox = sandboxConfig("exectimeout");
        String sandboxId = runtime().runPodSandbox(sandbox);
        String id = createAndStart(sandboxId, containerConfig("app", LONG_RUNNING, sandbox), sandbox);

        ExecResult result = runtime().execSync(id, SLEEPS_30S, Duration.ofSeconds(1));

        assertThat(result.timedOut()).isTrue();
        assertThat(runtime().containerStatus(id).state()).isEqualTo(ContainerState.CONTAINER_RUNNING);
        assertThat(runtime().execSync(id, PRINTS_AND_EXITS_7, Duration.ofSeconds(20)).exitCode()).isEqualTo(7);
    }

    @Test
    void execSyncWithoutATimeoutWaitsForTheCommand() {
        PodSandboxConfig sandbox = sandboxConfig("execnotimeout");
        String sandboxId = runtime().runPodSandbox(sandbox);
        String id = createAndStart(sandboxId, containerConfig("app", LONG_RUNNING, sandbox), sandbox);

        ExecResult result = runtime().execSync(id, SLEEPS_2S_AND_EXITS_5, RuntimeService.NO_TIMEOUT);

        assertThat(result.timedOut()).isFalse();
        assertThat(result.exitCode()).isEqualTo(5);
        assertThat(new String(result.stdout(), StandardCharsets.UTF_8)).isEqualTo("done\n");
    }

    @Test
    void execSyncInAStoppedContainerFails() {
        PodSandboxConfig sandbox = sandboxConfig("execstopped");
        String sandboxId = runtime().runPodSandbox(sandbox);
        String id = createAndStart(sandboxId, containerConfig("app", LONG_RUNNING, sandbox), sandbox);
        runtime().stopContainer(id, Duration.ofSeconds(10));

        assertThatThrownBy(() -> runtime().execSync(id, PRINTS_AND_EXITS_7, Duration.ofSeconds(5)))
                .isInstanceOf(RuntimeException.class).isNotInstanceOf(NotFoundException.class)
                .hasMessageContaining(id);
    }

    // ------------------------------------------------------------------ events

    @Test
    void watchEventsSeesContainersStartAndDieUntilClosed() throws Exception {
        PodSandboxConfig sandbox = sandboxConfig("events");
        String sandboxId = runtime().runPodSandbox(sandbox);
        List<RuntimeEvent> events = new CopyOnWriteArrayList<>();
        String uid = sandbox.metadata().uid();
        String id;
        try (AutoCloseable ignored = runtime().watchEvents(events::add)) {
            id = createAndStart(sandboxId, containerConfig("app", LONG_RUNNING, sandbox), sandbox);
            runtime().stopContainer(id, Duration.ofSeconds(10));

            awaitUntil(() -> events.contains(new RuntimeEvent(id, uid, RuntimeEvent.Type.STARTED))
                    && events.contains(new RuntimeEvent(id, uid, RuntimeEvent.Type.STOPPED)));
            assertThat(events).containsSubsequence(
                    new RuntimeEvent(id, uid, RuntimeEvent.Type.STARTED),
                    new RuntimeEvent(id, uid, RuntimeEvent.Type.STOPPED));
        }
        int seen = events.size();
        runtime().removeContainer(id);
        assertThat(events).hasSize(seen);
    }

    // ------------------------------------------------------------------ images

    @Test
    void imageStatusFindsAnImageByTagAndIdAndRemoveImageByIdRemovesIt() {
        String reference = imageName("contract-test-" + nodeName.substring("contract-test-".length()) + "/unique:1");
        String id = createUniqueImage(reference);
        imagesToRemove.add(id);

        Image byTag = images().imageStatus(reference).orElseThrow();
        assertThat(byTag.id()).isEqualTo(id);
        assertThat(byTag.repoTags()).contains(reference);
        assertThat(images().imageStatus(id)).map(Image::id).contains(id);
        assertThat(images().listImages()).extracting(Image::id).contains(id);

        images().removeImage(id);

        assertThat(images().imageStatus(reference)).isEmpty();
        assertThat(images().imageStatus(id)).isEmpty();
        assertThat(images().listImages()).extracting(Image::id).doesNotContain(id);
        assertThatCode(() -> images().removeImage(id)).doesNotThrowAnyException();
    }

    @Test
    void imageStatusGivesTheUserTheImagesConfigurationNamesByUidOrByNameWithoutItsGroup() {
        String repository = imageName("contract-test-" + nodeName.substring("contract-test-".length()));
        record Expected(String configUser, Long uid, String username) {}
        List<Expected> users = List.of(new Expected("1000", 1000L, ""), new Expected("1000:3000", 1000L, ""),
                new Expected("0", 0L, ""), new Expected("nobody", null, "nobody"),
                new Expected("nobody:nogroup", null, "nobody"), new Expected("", null, ""));
        for (int i = 0; i < users.size(); i++) {
            Expected user = users.get(i);
            String reference = repository + "/user:" + i;
            imagesToRemove.add(createUniqueImage(reference, user.configUser()));

            Image image = images().imageStatus(reference).orElseThrow();

            assertThat(image.uid()).as("uid of USER " + user.configUser()).isEqualTo(user.uid());
            assertThat(image.username()).as("name of USER " + user.configUser()).isEqualTo(user.username());
        }
    }

    @Test
    void removeImageByIdFailsWhileAContainerWasMadeFromItAndTheImageKeepsEveryName() {
        String repository = imageName("contract-test-" + nodeName.substring("contract-test-".length()));
        String id = createUniqueImage(repository + "/used:1");
        imagesToRemove.add(id);
        tagImage(repository + "/used:1", repository + "/other:2");
        PodSandboxConfig sandbox = sandboxConfig("gc");
        String sandboxId = runtime().runPodSandbox(sandbox);
        // Created, never started: a container that ran and exited holds its image just the same.
        String containerId = runtime().createContainer(sandboxId,
                withImage(containerConfig("c", EXIT_0, sandbox), repository + "/used:1"), sandbox);

        assertThatThrownBy(() -> images().removeImage(id)).isInstanceOf(RuntimeException.class);

        assertThat(images().imageStatus(id).orElseThrow().repoTags())
                .contains(repository + "/used:1", repository + "/other:2");
        runtime().removeContainer(containerId);
        images().removeImage(id);
        assertThat(images().imageStatus(id)).isEmpty();
        assertThat(images().imageStatus(repository + "/other:2")).isEmpty();
    }

    @Test
    void listImagesGivesEachImageItsSizeOnDisk() {
        String id = createUniqueImage(imageName("contract-test-" + nodeName.substring("contract-test-".length()) + "/sized:1"));
        imagesToRemove.add(id);

        assertThat(images().listImages()).filteredOn(i -> i.id().equals(id)).singleElement()
                .satisfies(i -> assertThat(i.size()).isPositive());
    }

    @Test
    void imageStatusOfAnAbsentImageIsEmpty() {
        assertThat(images().imageStatus("contract-test-absent/" + nodeName + ":1")).isEmpty();
    }

    @Test
    void pullOfAnImageNoRegistryServesFailsWithImagePullException() {
        // Port 1 on loopback: nothing listens there, so the pull fails without leaving the machine.
        assertThatThrownBy(() -> images().pullImage("127.0.0.1:1/contract-test/absent:1", null))
                .isInstanceOf(ImagePullException.class).hasMessageNotContaining("null");
    }

    @Test
    void imageFsInfoReportsAFileSystem() {
        var fs = images().imageFsInfo();

        assertThat(fs.mountpoint()).isNotEmpty();
        assertThat(fs.capacityBytes()).isPositive();
        assertThat(fs.availableBytes()).isBetween(0L, fs.capacityBytes());
    }

    // ------------------------------------------------------------------ helpers

    protected PodSandboxConfig sandboxConfig(String podName) {
        String uid = UUID.randomUUID().toString();
        String namespace = "contract";
        Map<String, String> labels = Map.of(
                Labels.POD_NAME, podName,
                Labels.POD_NAMESPACE, namespace,
                Labels.POD_UID, uid,
                Labels.NODE_NAME, nodeName,
                "app", podName);
        Map<String, String> annotations = Map.of(
                "kubernetes.io/config.source", "file",
                "contract.jkubelet.io/note", "a value with spaces, = and \"quotes\"");
        return new PodSandboxConfig(new PodSandboxMetadata(podName, uid, namespace, 0), podName,
                logRoot.resolve(namespace + "_" + podName + "_" + uid).toString(), null, List.of(), labels,
                annotations, "", NamespaceOptions.POD_DEFAULT, 0, pauseImage(), false, Map.of());
    }

    protected ContainerConfig containerConfig(String name, List<String> commandLine, PodSandboxConfig sandbox) {
        Map<String, String> labels = new HashMap<>();
        labels.put(Labels.POD_NAME, sandbox.metadata().name());
        labels.put(Labels.POD_NAMESPACE, sandbox.metadata().namespace());
        labels.put(Labels.POD_UID, sandbox.metadata().uid());
        labels.put(Labels.CONTAINER_NAME, name);
        labels.put(Labels.NODE_NAME, nodeName);
        Map<String, String> annotations = Map.of(
                Labels.CONTAINER_HASH, "5f3a9c1e",
                Labels.CONTAINER_RESTART_COUNT, "0",
                Labels.POD_TERMINATION_GRACE_PERIOD, "30");
        return new ContainerConfig(new ContainerMetadata(name, 0), busyboxImage(), commandLine, List.of(), "",
                List.of(new KeyValue("GREETING", "hello")), List.of(), labels, annotations, name + "/0.log",
                false, false, false, new LinuxContainerResources(0, 0, 0, 0, 0), defaultSecurity());
    }

    protected static LinuxContainerSecurityContext defaultSecurity() {
        return new LinuxContainerSecurityContext(null, null, List.of(), false, false, List.of(), List.of(),
                NamespaceOptions.POD_DEFAULT, false);
    }

    protected static PodSandboxConfig withNamespaces(PodSandboxConfig c, NamespaceOptions options) {
        return new PodSandboxConfig(c.metadata(), c.hostname(), c.logDirectory(), c.dnsConfig(), c.portMappings(),
                c.labels(), c.annotations(), c.cgroupParent(), options, c.oomScoreAdj(), c.image(), c.privileged(),
                c.sysctls());
    }

    protected static PodSandboxConfig withCgroupParent(PodSandboxConfig c, String cgroupParent) {
        return new PodSandboxConfig(c.metadata(), c.hostname(), c.logDirectory(), c.dnsConfig(), c.portMappings(),
                c.labels(), c.annotations(), cgroupParent, c.namespaceOptions(), c.oomScoreAdj(), c.image(), c.privileged(),
                c.sysctls());
    }

    protected static ContainerConfig withMounts(ContainerConfig c, List<Mount> mounts) {
        return new ContainerConfig(c.metadata(), c.image(), c.command(), c.args(), c.workingDir(), c.envs(), mounts,
                c.labels(), c.annotations(), c.logPath(), c.stdin(), c.stdinOnce(), c.tty(), c.resources(),
                c.securityContext());
    }

    protected static ContainerConfig withImage(ContainerConfig c, String image) {
        return new ContainerConfig(c.metadata(), image, c.command(), c.args(), c.workingDir(), c.envs(), c.mounts(),
                c.labels(), c.annotations(), c.logPath(), c.stdin(), c.stdinOnce(), c.tty(), c.resources(),
                c.securityContext());
    }

    protected String createAndStart(String sandboxId, ContainerConfig config, PodSandboxConfig sandbox) {
        String id = runtime().createContainer(sandboxId, config, sandbox);
        runtime().startContainer(id);
        return id;
    }

    protected ContainerStatus awaitExited(String containerId) {
        awaitUntil(() -> runtime().containerStatus(containerId).state() == ContainerState.CONTAINER_EXITED);
        return runtime().containerStatus(containerId);
    }

    protected void awaitUntil(Supplier<Boolean> condition) {
        Awaitility.await().atMost(patience()).pollInterval(Duration.ofMillis(100)).until(condition::get);
    }

    protected PodSandboxFilter mine(String id, PodSandboxState state, Map<String, String> labels) {
        Map<String, String> selector = new HashMap<>(labels);
        selector.put(Labels.NODE_NAME, nodeName);
        return new PodSandboxFilter(id, state, selector);
    }

    protected ContainerFilter mineContainers(ContainerState state) {
        return new ContainerFilter(null, state, null, Map.of(Labels.NODE_NAME, nodeName));
    }

    private static List<String> ids(List<?> items) {
        return items.stream().map(o -> switch (o) {
            case PodSandbox s -> s.id();
            case Container c -> c.id();
            default -> throw new IllegalArgumentException(o.toString());
        }).toList();
    }
}
