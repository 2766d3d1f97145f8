package io.jkubelet.core.runtime.testing;

import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.ContainerStats;
import io.jkubelet.core.runtime.ContainerStatus;
import io.jkubelet.core.runtime.ExecResult;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.ImagePullException;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.MemoryUsage;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.LinuxContainerResources;
import io.jkubelet.core.runtime.NamespaceMode;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.PodSandboxState;
import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.runtime.PodSandboxStatus;
import io.jkubelet.core.runtime.RegistryAuth;
import io.jkubelet.core.runtime.RuntimeEvent;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.RuntimeVersion;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * An in-memory container runtime for tests of the core, in the spirit of upstream's
 * {@code pkg/kubelet/container/testing/fake_runtime.go}, kept honest by {@link RuntimeServiceContract}.
 *
 * <p>What it offers tests:
 * <ul>
 *   <li>{@link #calls()}: the port methods called, in order (upstream's {@code CalledFunctions});</li>
 *   <li>{@link #injectError} (one-shot) and {@link #injectStickyError} (until {@link #clearErrors()}):
 *       the next call(s) of a method throw the given exception, after being recorded;</li>
 *   <li>images: {@link #addImage} makes an image present locally (with a size, taken from the image file system's
 *       available bytes and given back when it is removed), {@link #makePullable} puts one in the
 *       fake registry, {@link #failPull} makes pulls of a reference fail with a registry message;</li>
 *   <li>processes: nothing runs, so {@link #scriptCommand} says how a command line behaves when it is a
 *       container's command or an exec; an unscripted container runs until stopped or until
 *       {@link #exitContainer} ends it;</li>
 *   <li>{@link #stopCalls()}: every {@code stopContainer} with its timeout, in call order;
 *       {@link #holdStops} makes {@code stopContainer} of a container wait (outside the runtime's monitor)
 *       until the test opens the returned latch, to observe what happens meanwhile;</li>
 *   <li>runtime handlers: only the default ({@code ""}) and those {@link #addRuntimeHandler} configures, as
 *       containerd's; {@link #sandboxRuntimeHandler} tells which a sandbox was run with;</li>
 *   <li>{@link #failSandboxStarts}: sandboxes are created but cannot start and are left behind not ready, as
 *       Docker leaves a sandbox container that runc refused;</li>
 *   <li>{@link #watchEvents} listeners receive created/started/stopped/deleted events for sandboxes and
 *       containers, synchronously on the thread that caused them;</li>
 *   <li>every timestamp comes from the injected {@link Clock}; a scripted command that runs for a while
 *       exits once the clock has passed its end (noticed at the next call).</li>
 * </ul>
 *
 * <p>Thread-safe: every method holds the runtime's monitor, so calls from concurrent pod workers are
 * serialised, as are event deliveries.
 */
public final class FakeRuntime implements RuntimeService, ImageService {

    /** Exit code of a process killed by SIGKILL (128 + 9), as Docker reports after a stop timeout. */
    public static final int EXIT_CODE_KILLED = 137;

    /**
     * How a command line behaves when run as a container's process or as an exec.
     *
     * @param exitCode the exit code when it ends by itself
     * @param duration how long it runs; {@code null} for forever (until stopped)
     * @param exitCodeOnTerm the exit code when sent the stop signal, or {@code null} when it ignores the
     *     signal and is killed at the end of the grace period ({@value #EXIT_CODE_KILLED})
     * @param startError when not {@code null}, the runtime cannot start the process (e.g. the executable
     *     does not exist): starting the container fails with this message and {@code exitCode}
     */
    public record Script(int exitCode, String stdout, String stderr, Duration duration, Integer exitCodeOnTerm,
                         String startError) {
        public Script {
            Objects.requireNonNull(stdout, "stdout");
            Objects.requireNonNull(stderr, "stderr");
        }

        public Script(int exitCode, String stdout, String stderr, Duration duration, Integer exitCodeOnTerm) {
            this(exitCode, stdout, stderr, duration, exitCodeOnTerm, null);
        }

        /** The runtime cannot start it: the container ends with this exit code and message at once. */
        public static Script failsToStart(int exitCode, String message) {
            return new Script(exitCode, "", "", Duration.ZERO, null, Objects.requireNonNull(message, "message"));
        }

        /** Ends at once with this exit code and no output. */
        public static Script exitsWith(int exitCode) {
            return new Script(exitCode, "", "", Duration.ZERO, null);
        }

        /** Prints this and ends at once with this exit code. */
        public static Script prints(String stdout, String stderr, int exitCode) {
            return new Script(exitCode, stdout, stderr, Duration.ZERO, null);
        }

        /** Runs until stopped, ignoring the stop signal (like {@code sleep} as PID 1). */
        public static Script runsForever() {
            return new Script(0, "", "", null, null);
        }

        public Script lasting(Duration duration) {
            return new Script(exitCode, stdout, stderr, duration, exitCodeOnTerm, startError);
        }

        public Script exitingOnTermWith(int code) {
            return new Script(exitCode, stdout, stderr, duration, code, startError);
        }
    }

    private final Clock clock;
    private final List<String> calls = new ArrayList<>();
    private final Map<String, Deque<RuntimeException>> oneShotErrors = new HashMap<>();
    private final Map<String, RuntimeException> stickyErrors = new HashMap<>();
    private final Map<String, FakeSandbox> sandboxes = new LinkedHashMap<>();
    /** The one command the fake answers without a script: where the container's processes are in the cgroup tree. */
    public static final List<String> PROC_SELF_CGROUP = List.of("cat", "/proc/self/cgroup");
    private final Map<String, FakeContainer> containers = new LinkedHashMap<>();
    private final Map<String, LinuxContainerResources> updatedResources = new HashMap<>();
    /** The working set running containers report, by container name. */
    private final Map<String, Long> memoryUsage = new HashMap<>();
    /** Local images by id. */
    private final Map<String, FakeImage> images = new LinkedHashMap<>();
    /** References the fake registry serves, with the image id a pull produces. */
    private final Map<String, String> pullable = new HashMap<>();
    private final Map<String, String> pullFailures = new HashMap<>();
    /** References a private registry serves only to this user and password: "user:password". */
    private final Map<String, String> privateImages = new HashMap<>();
    private final Map<List<String>, Script> scripts = new HashMap<>();
    private final List<StopCall> stopCalls = new ArrayList<>();
    private final Map<String, java.util.concurrent.CountDownLatch> heldStops = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<Consumer<RuntimeEvent>> listeners = new CopyOnWriteArrayList<>();
    /** When set, every sandbox is created but cannot start: it is left behind not ready, as Docker leaves it. */
    private String sandboxStartError;
    /** The runtime handlers configured besides the default {@code ""}, as containerd's {@code runtimes} table. */
    private final Set<String> runtimeHandlers = new HashSet<>();
    private List<String> pinnedImages = List.of();
    private FilesystemUsage imageFs = new FilesystemUsage("/var/lib/fake-runtime", 100L << 30, 60L << 30, 40L << 30,
            1_000_000, 900_000, 100_000);
    private long nextId;
    private int nextIp = 2;

    public FakeRuntime(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    // ---------------------------------------------------------------- test controls

    /** One {@code stopContainer} call: which container, with which grace period. */
    public record StopCall(String containerId, Duration timeout) {}

    /** The {@code stopContainer} calls so far, in the order they reached the runtime. */
    public synchronized List<StopCall> stopCalls() {
        return List.copyOf(stopCalls);
    }

    /**
     * Makes {@code stopContainer(containerId)} wait until the returned latch is opened; the call is recorded
     * in {@link #stopCalls()} only once it goes on.
     */
    public java.util.concurrent.CountDownLatch holdStops(String containerId) {
        var gate = new java.util.concurrent.CountDownLatch(1);
        heldStops.put(containerId, gate);
        return gate;
    }

    /** The port methods called so far, by name, in call order. */
    public synchronized List<String> calls() {
        return List.copyOf(calls);
    }

    public synchronized void clearCalls() {
        calls.clear();
    }

    /** The next call of {@code method} (a port method name, e.g. {@code createContainer}) throws {@code error}. */
    public synchronized void injectError(String method, RuntimeException error) {
        oneShotErrors.computeIfAbsent(method, m -> new ArrayDeque<>()).add(error);
    }

    /** Every call of {@code method} throws {@code error} until {@link #clearErrors()}. */
    public synchronized void injectStickyError(String method, RuntimeException error) {
        stickyErrors.put(method, error);
    }

    public synchronized void clearErrors() {
        oneShotErrors.clear();
        stickyErrors.clear();
    }

    /** Makes an image present locally under this reference; returns its id. Idempotent per reference. */
    public synchronized String addImage(String reference) {
        String ref = normalize(reference);
        Optional<FakeImage> existing = find(ref);
        if (existing.isPresent()) {
            return existing.get().id;
        }
        return putImage(ref, "sha256:" + sha256("image:" + ref + ":" + nextId++));
    }

    /**
     * Makes an image of {@code sizeBytes} present locally under this reference, taking its size from the image file
     * system's available bytes (as a pull would); returns its id.
     */
    public synchronized String addImage(String reference, long sizeBytes) {
        String id = addImage(reference);
        FakeImage image = images.get(id);
        imageFs = withAvailable(imageFs, imageFs.availableBytes() + (image.onImageFs ? image.size : 0) - sizeBytes);
        image.size = sizeBytes;
        image.onImageFs = true;
        return id;
    }

    private static FilesystemUsage withAvailable(FilesystemUsage fs, long available) {
        return new FilesystemUsage(fs.mountpoint(), fs.capacityBytes(), available,
                fs.usedBytes() + fs.availableBytes() - available, fs.inodes(), fs.inodesFree(), fs.inodesUsed());
    }

    /**
     * Sets the user an existing image's configuration names ({@code USER} of its Dockerfile: {@code 1000},
     * {@code nobody}, {@code 1000:1000}), which its status reports as the runtimes do.
     */
    public synchronized void setImageUser(String reference, String configUser) {
        find(normalize(reference)).orElseThrow(() -> new NotFoundException("image " + reference + " not found"))
                .configUser = configUser;
    }

    /** Gives an existing image one more tag (like {@code docker tag}). */
    public synchronized void tagImage(String existingReference, String newReference) {
        FakeImage image = find(normalize(existingReference))
                .orElseThrow(() -> new NotFoundException("image " + existingReference + " not found"));
        image.tags.add(normalize(newReference));
    }

    /** Puts an image in the fake registry: pulling this reference then succeeds. */
    public synchronized void makePullable(String reference) {
        pullable.putIfAbsent(normalize(reference), "sha256:" + sha256("pullable:" + normalize(reference)));
    }

    /** Pulls of this reference fail with the registry's {@code message} until {@link #clearPullFailure}. */
    public synchronized void failPull(String reference, String message) {
        pullFailures.put(normalize(reference), message);
    }

    /**
     * Puts an image in the fake registry behind basic authentication: only a pull with this user and password gets
     * it; any other fails as Docker's pull from an htpasswd registry does.
     */
    public synchronized void makePullableWith(String reference, String username, String password) {
        makePullable(reference);
        privateImages.put(normalize(reference), username + ":" + password);
    }

    public synchronized void clearPullFailure(String reference) {
        pullFailures.remove(normalize(reference));
    }

    /**
     * Every sandbox from now on is created but fails to start with this message (e.g. runc refusing a privileged
     * pod's capabilities), leaving a dead sandbox behind as Docker does; {@code null} lets them start again.
     */
    public synchronized void failSandboxStarts(String message) {
        this.sandboxStartError = message;
    }

    /** Configures a runtime handler a sandbox may be run with (a containerd runtime of that name). */
    public synchronized void addRuntimeHandler(String handler) {
        runtimeHandlers.add(handler);
    }

    /** The runtime handler a sandbox was run with; {@code ""} for the default. */
    public synchronized String sandboxRuntimeHandler(String podSandboxId) {
        return sandbox(podSandboxId).runtimeHandler;
    }

    public synchronized void setImageFsInfo(FilesystemUsage usage) {
        this.imageFs = Objects.requireNonNull(usage, "usage");
    }

    /** The images this runtime keeps for itself, as a CRI runtime's own sandbox image. */
    public synchronized void setPinnedImages(List<String> images) {
        this.pinnedImages = List.copyOf(images);
    }

    /** Says how this command line (container command + args, or exec command) behaves. */
    public synchronized void scriptCommand(List<String> commandLine, Script script) {
        scripts.put(List.copyOf(commandLine), Objects.requireNonNull(script, "script"));
    }

    /**
     * Makes a running container exit now, as if its process had ended.
     *
     * @param reason the runtime's reason ({@code OOMKilled}, ...), or {@code null} for the default
     *     ({@code Completed} for 0, {@code Error} otherwise)
     */
    public synchronized void exitContainer(String containerId, int exitCode, String reason) {
        FakeContainer c = container(containerId);
        if (c.state != ContainerState.CONTAINER_RUNNING) {
            throw new IllegalStateException("container " + containerId + " is not running but " + c.state);
        }
        c.exit(exitCode, reason);
    }

    /**
     * Docker's order: the {@code die} event reaches the kubelet before its container list shows the container
     * exited. {@code beforeTheList} runs between the two (a test waits there for the relist the event triggers).
     */
    public void exitContainerEventFirst(String containerId, int exitCode, Runnable beforeTheList) {
        FakeContainer c;
        synchronized (this) {
            c = container(containerId);
        }
        emit(containerId, c.sandbox.uid(), RuntimeEvent.Type.STOPPED);
        beforeTheList.run();
        synchronized (this) {
            c.exitQuietly(exitCode, null);
        }
    }

    /** The config a container was created from. */
    public synchronized ContainerConfig containerConfig(String containerId) {
        return container(containerId).config;
    }

    /** The config a sandbox was created from. */
    public synchronized PodSandboxConfig sandboxConfig(String podSandboxId) {
        return sandbox(podSandboxId).config;
    }

    // ---------------------------------------------------------------- RuntimeService

    @Override
    public synchronized RuntimeVersion version() {
        record("version");
        return new RuntimeVersion("fake", "0.1.0", "0.1.0");
    }

    @Override
    public synchronized String runPodSandbox(PodSandboxConfig config, String runtimeHandler) {
        record("runPodSandbox");
        Objects.requireNonNull(config, "config");
        if (!runtimeHandler.isEmpty() && !runtimeHandlers.contains(runtimeHandler)) {
            // containerd's refusal, before anything is made.
            throw new IllegalArgumentException("failed to get sandbox runtime: no runtime for \"" + runtimeHandler
                    + "\" is configured");
        }
        if (find(normalize(config.image())).isEmpty()) {
            // dockershim pulls a missing sandbox image before creating the sandbox.
            pull(config.image());
        }
        String id = newId();
        boolean hostNetwork = config.namespaceOptions() != null && config.namespaceOptions().network() == NamespaceMode.NODE;
        FakeSandbox sandbox = new FakeSandbox(id, config, clock.instant(), hostNetwork ? "" : "10.88.0." + nextIp++,
                runtimeHandler);
        sandboxes.put(id, sandbox);
        emit(id, sandbox.uid(), RuntimeEvent.Type.CREATED);
        if (sandboxStartError != null) {
            sandbox.state = PodSandboxState.SANDBOX_NOTREADY;
            throw new IllegalStateException("failed to start sandbox container " + id + ": " + sandboxStartError);
        }
        emit(id, sandbox.uid(), RuntimeEvent.Type.STARTED);
        return id;
    }

    @Override
    public synchronized void stopPodSandbox(String podSandboxId) {
        record("stopPodSandbox");
        FakeSandbox sandbox = sandbox(podSandboxId);
        for (FakeContainer c : containersOf(podSandboxId)) {
            c.terminate();
        }
        if (sandbox.state == PodSandboxState.SANDBOX_READY) {
            sandbox.state = PodSandboxState.SANDBOX_NOTREADY;
            emit(podSandboxId, sandbox.uid(), RuntimeEvent.Type.STOPPED);
        }
    }

    @Override
    public synchronized void removePodSandbox(String podSandboxId) {
        record("removePodSandbox");
        FakeSandbox sandbox = sandboxes.get(podSandboxId);
        if (sandbox == null) {
            return;
        }
        for (FakeContainer c : containersOf(podSandboxId)) {
            c.terminate();
            containers.remove(c.id);
            emit(c.id, c.sandbox.uid(), RuntimeEvent.Type.DELETED);
        }
        if (sandbox.state == PodSandboxState.SANDBOX_READY) {
            sandbox.state = PodSandboxState.SANDBOX_NOTREADY;
            emit(podSandboxId, sandbox.uid(), RuntimeEvent.Type.STOPPED);
        }
        sandboxes.remove(podSandboxId);
        emit(podSandboxId, sandbox.uid(), RuntimeEvent.Type.DELETED);
    }

    @Override
    public synchronized PodSandboxStatus podSandboxStatus(String podSandboxId) {
        record("podSandboxStatus");
        FakeSandbox s = sandbox(podSandboxId);
        String ip = s.state == PodSandboxState.SANDBOX_READY ? s.ip : "";
        return new PodSandboxStatus(s.id, s.config.metadata(), s.state, s.createdAt, ip, List.of(),
                s.config.namespaceOptions(), s.config.labels(), s.config.annotations());
    }

    @Override
    public synchronized List<PodSandbox> listPodSandbox(PodSandboxFilter filter) {
        record("listPodSandbox");
        PodSandboxFilter f = filter == null ? PodSandboxFilter.ALL : filter;
        List<PodSandbox> result = new ArrayList<>();
        for (FakeSandbox s : sandboxes.values()) {
            if ((f.id() == null || s.id.startsWith(f.id()))
                    && (f.state() == null || f.state() == s.state)
                    && matches(s.config.labels(), f.labelSelector())) {
                result.add(new PodSandbox(s.id, s.config.metadata(), s.state, s.createdAt,
                        s.config.labels(), s.config.annotations()));
            }
        }
        return result;
    }

    @Override
    public synchronized String createContainer(String podSandboxId, ContainerConfig config,
                                               PodSandboxConfig sandboxConfig) {
        record("createContainer");
        Objects.requireNonNull(config, "config");
        FakeSandbox sandbox = sandbox(podSandboxId);
        FakeImage image = find(normalize(config.image()))
                .orElseThrow(() -> new NotFoundException("image " + config.image() + " not found"));
        String id = newId();
        FakeContainer c = new FakeContainer(id, sandbox, config, image.id, clock.instant());
        containers.put(id, c);
        emit(id, sandbox.uid(), RuntimeEvent.Type.CREATED);
        return id;
    }

    @Override
    public synchronized void updateContainerResources(String containerId, LinuxContainerResources resources) {
        record("updateContainerResources");
        container(containerId);
        updatedResources.put(containerId, resources);
    }

    /** The last resources each container was updated with. */
    public synchronized Map<String, LinuxContainerResources> updatedResources() {
        return Map.copyOf(updatedResources);
    }

    @Override
    public synchronized void startContainer(String containerId) {
        record("startContainer");
        FakeContainer c = container(containerId);
        if (c.state != ContainerState.CONTAINER_CREATED) {
            throw new IllegalStateException("cannot start container " + containerId + ": it is " + c.state);
        }
        c.start();
    }

    @Override
    public void stopContainer(String containerId, Duration timeout) {
        var gate = heldStops.get(containerId);
        if (gate != null) {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while a test held the stop of " + containerId, e);
            }
        }
        stop(containerId, timeout);
    }

    private synchronized void stop(String containerId, Duration timeout) {
        record("stopContainer");
        stopCalls.add(new StopCall(containerId, timeout));
        container(containerId).terminate();
    }

    @Override
    public synchronized void removeContainer(String containerId) {
        record("removeContainer");
        FakeContainer c = containers.get(containerId);
        if (c == null) {
            return;
        }
        c.terminate();
        containers.remove(containerId);
        emit(containerId, c.sandbox.uid(), RuntimeEvent.Type.DELETED);
    }

    @Override
    public synchronized List<Container> listContainers(ContainerFilter filter) {
        record("listContainers");
        ContainerFilter f = filter == null ? ContainerFilter.ALL : filter;
        List<Container> result = new ArrayList<>();
        for (FakeContainer c : containers.values()) {
            c.refresh();
            if ((f.id() == null || c.id.startsWith(f.id()))
                    && (f.state() == null || f.state() == c.state)
                    && (f.podSandboxId() == null || c.sandbox.id.equals(f.podSandboxId()))
                    && matches(c.config.labels(), f.labelSelector())) {
                result.add(new Container(c.id, c.sandbox.id, c.config.metadata(), c.config.image(), c.imageRef,
                        c.state, c.createdAt, c.config.labels(), c.config.annotations()));
            }
        }
        return result;
    }

    @Override
    public synchronized ContainerStatus containerStatus(String containerId) {
        record("containerStatus");
        FakeContainer c = container(containerId);
        c.refresh();
        String logPath = c.config.logPath() == null || c.config.logPath().isEmpty()
                ? "" : Path.of(c.sandbox.config.logDirectory(), c.config.logPath()).toString();
        return new ContainerStatus(c.id, c.config.metadata(), c.state, c.createdAt, c.startedAt, c.finishedAt,
                c.exitCode, c.config.image(), c.imageRef, c.reason, c.message, c.config.labels(),
                c.config.annotations(), c.config.mounts(), logPath);
    }

    @Override
    public synchronized ExecResult execSync(String containerId, List<String> command, Duration timeout) {
        record("execSync");
        FakeContainer c = container(containerId);
        c.refresh();
        if (c.state != ContainerState.CONTAINER_RUNNING) {
            throw new IllegalStateException("cannot exec in container " + containerId + ": it is not running");
        }
        Script script = scripts.get(List.copyOf(command));
        if (script == null && command.equals(PROC_SELF_CGROUP)) {
            // As the kernel shows a process its cgroup: the container's, inside the sandbox's cgroup parent.
            String parent = c.sandbox.config.cgroupParent().isEmpty() ? "/fake" : c.sandbox.config.cgroupParent();
            return new ExecResult(0, ("0::" + parent + "/" + containerId + "\n").getBytes(StandardCharsets.UTF_8),
                    new byte[0], false);
        }
        if (script == null) {
            // What a real runtime answers for a program it cannot find.
            return new ExecResult(126, new byte[0],
                    ("exec: \"" + command.getFirst() + "\": executable file not found (fake runtime: no script)")
                            .getBytes(StandardCharsets.UTF_8), false);
        }
        boolean timedOut = script.duration() == null || script.duration().compareTo(timeout) > 0;
        return new ExecResult(timedOut ? -1 : script.exitCode(), script.stdout().getBytes(StandardCharsets.UTF_8),
                script.stderr().getBytes(StandardCharsets.UTF_8), timedOut);
    }

    /**
     * Streams an exec: a scripted command's output goes to the client's streams and its exit code is
     * returned; an unscripted one fails as {@link #execSync} does (126). Stdin is not read.
     */
    @Override
    public int exec(String containerId, List<String> command, io.jkubelet.core.runtime.StreamingIo io) {
        ExecResult result = execSync(containerId, command, Duration.ofDays(1));
        try {
            if (io.stdout() != null) {
                io.stdout().write(result.stdout());
            }
            if (io.stderr() != null) {
                io.stderr().write(result.stderr());
            } else if (io.stdout() != null) {
                io.stdout().write(result.stderr());
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return result.exitCode();
    }

    /** Nothing runs in the fake, so an attach sees no output and ends at once. */
    @Override
    public synchronized void attach(String containerId, io.jkubelet.core.runtime.StreamingIo io) {
        record("attach");
        container(containerId);
    }

    /** The fake has no network: every port is refused. */
    @Override
    public synchronized void portForward(String podSandboxId, int port, java.io.InputStream in, java.io.OutputStream out)
            throws java.io.IOException {
        record("portForward");
        throw new java.io.IOException("fake runtime: nothing listens on port " + port + " in sandbox " + podSandboxId);
    }

    @Override
    public synchronized AutoCloseable watchEvents(Consumer<RuntimeEvent> listener) {
        record("watchEvents");
        Objects.requireNonNull(listener, "listener");
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    // ---------------------------------------------------------------- ImageService

    @Override
    public synchronized List<Image> listImages() {
        record("listImages");
        return images.values().stream().map(FakeImage::toImage).toList();
    }

    @Override
    public synchronized Optional<Image> imageStatus(String image) {
        record("imageStatus");
        return find(normalize(image)).map(FakeImage::toImage);
    }

    /** The credentials of every pull, in order ({@code null} for an anonymous pull). */
    private final List<RegistryAuth> pullAuths = new ArrayList<>();

    public synchronized List<RegistryAuth> pullAuths() {
        return new ArrayList<>(pullAuths);
    }

    @Override
    public synchronized String pullImage(String image, RegistryAuth auth) {
        record("pullImage");
        pullAuths.add(auth);
        String required = privateImages.get(normalize(image));
        if (required != null && (auth == null || !required.equals(auth.username() + ":" + auth.password()))) {
            throw new ImagePullException("Head \"https://" + repository(normalize(image)) + "\": "
                    + (auth == null ? "no basic auth credentials" : "unauthorized: authentication required"), null);
        }
        return pull(image);
    }

    /**
     * Removes an image. By id: the image with every tag; by tag or digest: that reference, and the image
     * once no tag is left. Idempotent; fails while a container uses the image.
     */
    @Override
    public synchronized void removeImage(String image) {
        record("removeImage");
        String ref = normalize(image);
        Optional<FakeImage> found = find(ref);
        if (found.isEmpty()) {
            return;
        }
        FakeImage img = found.get();
        boolean byId = img.id.equals(image) || img.id.equals("sha256:" + image);
        if (!byId) {
            img.tags.remove(ref);
            img.digests.remove(image);
            if (!img.tags.isEmpty() || !img.digests.isEmpty()) {
                return;
            }
        }
        for (FakeContainer c : containers.values()) {
            if (c.imageRef.equals(img.id)) {
                throw new IllegalStateException("cannot remove image " + image + ": container " + c.id + " uses it");
            }
        }
        images.remove(img.id);
        if (img.onImageFs) {
            imageFs = withAvailable(imageFs, imageFs.availableBytes() + img.size);
        }
    }

    /** The working set every running container named {@code containerName} reports from now on (1 MiB unless set). */
    public synchronized void setMemoryUsage(String containerName, long workingSetBytes) {
        memoryUsage.put(containerName, workingSetBytes);
    }

    /** Ready sandboxes and their running containers, each using the memory {@link #setMemoryUsage} gave its name. */
    @Override
    public synchronized List<PodSandboxStats> listPodSandboxStats(Map<String, String> labelSelector) {
        record("listPodSandboxStats");
        Instant now = clock.instant();
        List<PodSandboxStats> result = new ArrayList<>();
        for (FakeSandbox s : sandboxes.values()) {
            if (s.state != PodSandboxState.SANDBOX_READY || !matches(s.config.labels(), labelSelector)) {
                continue;
            }
            List<ContainerStats> running = new ArrayList<>();
            for (FakeContainer c : containers.values()) {
                c.refresh();
                if (c.sandbox == s && c.state == ContainerState.CONTAINER_RUNNING) {
                    long ws = memoryUsage.getOrDefault(c.config.metadata().name(), 1L << 20);
                    running.add(new ContainerStats(c.id, s.id, c.config.metadata(), c.config.labels(), c.id,
                            "/fake/" + c.id, c.config.image(), c.startedAt, null,
                            new MemoryUsage(now, ws, ws, ws, 0, 0, null), null, 1L, null));
                }
            }
            result.add(new PodSandboxStats(s.id, s.config.metadata(), s.config.labels(), s.createdAt, null, null, running));
        }
        return result;
    }

    @Override
    public synchronized FilesystemUsage imageFsInfo() {
        record("imageFsInfo");
        return imageFs;
    }

    @Override
    public synchronized List<String> pinnedImages() {
        record("pinnedImages");
        return pinnedImages;
    }

    // ---------------------------------------------------------------- internals

    private void record(String method) {
        calls.add(method);
        Deque<RuntimeException> queue = oneShotErrors.get(method);
        if (queue != null && !queue.isEmpty()) {
            throw queue.poll();
        }
        RuntimeException sticky = stickyErrors.get(method);
        if (sticky != null) {
            throw sticky;
        }
    }

    private String pull(String image) {
        String ref = normalize(image);
        String failure = pullFailures.get(ref);
        if (failure != null) {
            throw new ImagePullException(failure, null);
        }
        String id = pullable.get(ref);
        if (id == null) {
            throw new ImagePullException("pull access denied for " + image
                    + ", repository does not exist or may require authorization", null);
        }
        FakeImage existing = images.get(id);
        if (existing != null) {
            existing.tags.add(ref);
        } else {
            putImage(ref, id);
        }
        images.get(id).digests.add(repository(ref) + "@" + id);
        return id;
    }

    private String putImage(String ref, String id) {
        FakeImage image = new FakeImage(id);
        image.tags.add(ref);
        images.put(id, image);
        return id;
    }

    private Optional<FakeImage> find(String normalizedRef) {
        for (FakeImage image : images.values()) {
            if (image.id.equals(normalizedRef) || image.id.equals("sha256:" + normalizedRef)
                    || image.tags.contains(normalizedRef) || image.digests.contains(normalizedRef)) {
                return Optional.of(image);
            }
        }
        return Optional.empty();
    }

    /** {@code busybox} and {@code busybox:latest} name the same image; ids and digests stay as they are. */
    private static String normalize(String reference) {
        Objects.requireNonNull(reference, "image reference");
        if (reference.startsWith("sha256:") || reference.contains("@") || reference.matches("[0-9a-f]{12,64}")) {
            return reference;
        }
        int slash = reference.lastIndexOf('/');
        return reference.indexOf(':', slash + 1) >= 0 ? reference : reference + ":latest";
    }

    private static String repository(String normalizedTag) {
        int slash = normalizedTag.lastIndexOf('/');
        int colon = normalizedTag.indexOf(':', slash + 1);
        return colon < 0 ? normalizedTag : normalizedTag.substring(0, colon);
    }

    private static boolean matches(Map<String, String> labels, Map<String, String> selector) {
        if (selector == null) {
            return true;
        }
        for (Map.Entry<String, String> e : selector.entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private FakeSandbox sandbox(String id) {
        FakeSandbox s = id == null ? null : sandboxes.get(id);
        if (s == null) {
            throw new NotFoundException("pod sandbox " + id + " not found");
        }
        return s;
    }

    private FakeContainer container(String id) {
        FakeContainer c = id == null ? null : containers.get(id);
        if (c == null) {
            throw new NotFoundException("container " + id + " not found");
        }
        return c;
    }

    private List<FakeContainer> containersOf(String sandboxId) {
        return containers.values().stream().filter(c -> c.sandbox.id.equals(sandboxId)).toList();
    }

    private String newId() {
        return sha256("fake-runtime-object-" + nextId++);
    }

    private void emit(String id, String podUid, RuntimeEvent.Type type) {
        RuntimeEvent event = new RuntimeEvent(id, podUid, type);
        for (Consumer<RuntimeEvent> listener : listeners) {
            listener.accept(event);
        }
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final class FakeSandbox {
        final String id;
        final PodSandboxConfig config;
        final Instant createdAt;
        final String ip;
        final String runtimeHandler;
        PodSandboxState state = PodSandboxState.SANDBOX_READY;

        FakeSandbox(String id, PodSandboxConfig config, Instant createdAt, String ip, String runtimeHandler) {
            this.id = id;
            this.config = config;
            this.createdAt = createdAt;
            this.ip = ip;
            this.runtimeHandler = runtimeHandler;
        }

        String uid() {
            return config.labels().getOrDefault(Labels.POD_UID, config.metadata() == null ? null : config.metadata().uid());
        }
    }

    private final class FakeContainer {
        final String id;
        final FakeSandbox sandbox;
        final ContainerConfig config;
        final String imageRef;
        final Instant createdAt;
        ContainerState state = ContainerState.CONTAINER_CREATED;
        Instant startedAt;
        Instant finishedAt;
        int exitCode;
        String reason = "";
        String message = "";
        Script script;

        FakeContainer(String id, FakeSandbox sandbox, ContainerConfig config, String imageRef, Instant createdAt) {
            this.id = id;
            this.sandbox = sandbox;
            this.config = config;
            this.imageRef = imageRef;
            this.createdAt = createdAt;
        }

        void start() {
            List<String> commandLine = new ArrayList<>(config.command());
            commandLine.addAll(config.args());
            script = scripts.getOrDefault(commandLine, Script.runsForever());
            if (script.startError() != null) {
                // As Docker reports a process that could not be started: exited, never started.
                state = ContainerState.CONTAINER_EXITED;
                exitCode = script.exitCode();
                startedAt = createdAt;
                finishedAt = createdAt;
                reason = "ContainerCannotRun";
                message = script.startError();
                throw new IllegalStateException("failed to start container " + id + ": " + script.startError());
            }
            state = ContainerState.CONTAINER_RUNNING;
            startedAt = clock.instant();
            emit(id, sandbox.uid(), RuntimeEvent.Type.STARTED);
            refresh();
        }

        /** Ends a scripted process whose time has come. */
        void refresh() {
            if (state == ContainerState.CONTAINER_RUNNING && script != null && script.duration() != null
                    && !clock.instant().isBefore(startedAt.plus(script.duration()))) {
                exit(script.exitCode(), null);
            }
        }

        /** The stop signal: a process that handles it exits with its code, the others are killed. */
        void terminate() {
            refresh();
            if (state == ContainerState.CONTAINER_RUNNING) {
                Integer onTerm = script == null ? null : script.exitCodeOnTerm();
                exit(onTerm != null ? onTerm : EXIT_CODE_KILLED, null);
            }
            // A created container that is stopped stays created, as in Docker: nothing ran.
        }

        void exit(int code, String why) {
            exitQuietly(code, why);
            emit(id, sandbox.uid(), RuntimeEvent.Type.STOPPED);
        }

        void exitQuietly(int code, String why) {
            state = ContainerState.CONTAINER_EXITED;
            finishedAt = clock.instant();
            exitCode = code;
            reason = why != null ? why : code == 0 ? "Completed" : "Error";
        }
    }

    private static final class FakeImage {
        final String id;
        final List<String> tags = new ArrayList<>();
        final List<String> digests = new ArrayList<>();

        /** Bytes on disk; {@link #addImage(String, long)} sets it. */
        long size = 1_000_000L;
        /** Its size is counted in the image file system's usage (it was added with a size). */
        boolean onImageFs;
        /** The user its configuration names; none by default. */
        String configUser = "";

        FakeImage(String id) {
            this.id = id;
        }

        Image toImage() {
            return Image.withConfigUser(id, tags, digests, size, configUser);
        }
    }
}
