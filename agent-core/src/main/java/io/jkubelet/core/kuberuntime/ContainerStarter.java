package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.container.ContainerStatus;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.container.State;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.images.ImageManager;
import io.jkubelet.core.lifecycle.HandlerRunner;
import io.jkubelet.core.lifecycle.HookException;
import io.jkubelet.core.podutil.PodSpecs;
import io.jkubelet.core.runtime.ContainerConfig;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.util.Backoff;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volumemanager.VolumeInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Starts one container (upstream {@code startContainer}): crash-loop back-off, the image, the container's config,
 * create and start, the legacy log link, then the postStart hook, which the next container waits for. Thread-safe.
 */
final class ContainerStarter {
    private static final Logger log = LoggerFactory.getLogger(ContainerStarter.class);

    /** Kill reason of a container whose postStart hook failed (upstream {@code reasonFailedPostStartHook}). */
    static final String REASON_FAILED_POST_START_HOOK = "FailedPostStartHook";

    /**
     * What a start needs besides the container: the pod and its runtime state, the sandbox it joins, its IP,
     * its mounted volumes and its hosts file (null for a host-network pod).
     */
    record StartRequest(Pod pod, RuntimePodStatus podStatus, Container container, String sandboxId,
                        PodSandboxConfig sandboxConfig, String podIp, Map<String, VolumeInfo> volumes, Path etcHosts) {}

    private final RuntimeService runtime;
    private final ImageManager images;
    private final ContainerConfigFactory configs;
    private final PodDirs dirs;
    private final Path containerLogsDir;
    private final EventRecorder recorder;
    private final Backoff crashBackoff;
    private final HandlerRunner hooks;
    private final ContainerKiller killer;

    ContainerStarter(RuntimeService runtime, ImageManager images, ContainerConfigFactory configs, PodDirs dirs,
                     Path containerLogsDir, EventRecorder recorder, Backoff crashBackoff, HandlerRunner hooks,
                     ContainerKiller killer) {
        this.runtime = runtime;
        this.images = images;
        this.configs = configs;
        this.dirs = dirs;
        this.containerLogsDir = containerLogsDir;
        this.recorder = recorder;
        this.crashBackoff = crashBackoff;
        this.hooks = hooks;
        this.killer = killer;
    }

    SyncResult.StartResult start(StartRequest request) {
        Pod pod = request.pod();
        RuntimePodStatus podStatus = request.podStatus();
        Container c = request.container();
        PodSandboxConfig sandboxConfig = request.sandboxConfig();
        String name = c.getName();
        var ref = References.container(pod, c);
        // Crash-loop backoff, keyed by the container's spec hash so that a changed spec starts at once.
        Optional<ContainerStatus> lastExited = podStatus.containersByName(name).stream()
                .filter(s -> s.state() == State.EXITED).findFirst();
        if (lastExited.isPresent() && lastExited.get().finishedAt() != null) {
            String key = backoffKey(pod, c);
            if (crashBackoff.isInBackOffSince(key, lastExited.get().finishedAt())) {
                recorder.event(ref, EventRecorder.WARNING, "BackOff",
                        "Back-off restarting failed container " + name + " in pod " + PodSpecs.format(pod));
                String msg = "back-off " + goDuration(crashBackoff.get(key)) + " restarting failed container=" + name
                        + " pod=" + PodSpecs.format(pod);
                return new SyncResult.StartResult(name, RuntimeManager.CRASH_LOOP_BACK_OFF, msg);
            }
            crashBackoff.next(key, lastExited.get().finishedAt());
        }

        try {
            images.ensureImageExists(pod, c, null);
        } catch (ImageManager.ImageException e) {
            return new SyncResult.StartResult(name, e.reason(), e.getMessage());
        }
        int restartCount = podStatus.findContainerStatusByName(name).map(s -> s.restartCount() + 1)
                .orElseGet(() -> restartCountFromLogs(sandboxConfig, name));
        ContainerConfig config;
        try {
            ImageUser imageUser = imageUser(c);
            Path tmFile = terminationMessageFile(pod, name);
            config = configs.containerConfig(pod, c, restartCount, request.podIp(), request.volumes(),
                    request.etcHosts(), tmFile, imageUser);
        } catch (ContainerConfigFactory.ConfigException | IOException e) {
            recorder.event(ref, EventRecorder.WARNING, "Failed", "Error: " + e.getMessage());
            return new SyncResult.StartResult(name, RuntimeManager.CREATE_CONTAINER_CONFIG_ERROR, e.getMessage());
        }
        String id;
        try {
            id = runtime.createContainer(request.sandboxId(), config, sandboxConfig);
        } catch (RuntimeException e) {
            recorder.event(ref, EventRecorder.WARNING, "Failed", "Error: " + e.getMessage());
            return new SyncResult.StartResult(name, RuntimeManager.CREATE_CONTAINER_ERROR, e.getMessage());
        }
        recorder.event(ref, EventRecorder.NORMAL, "Created", "Created container " + name);
        try {
            runtime.startContainer(id);
        } catch (RuntimeException e) {
            recorder.event(ref, EventRecorder.WARNING, "Failed", "Error: " + e.getMessage());
            return new SyncResult.StartResult(name, RuntimeManager.RUN_CONTAINER_ERROR, e.getMessage());
        }
        recorder.event(ref, EventRecorder.NORMAL, "Started", "Started container " + name);
        linkLegacyLog(pod, name, id, Path.of(sandboxConfig.logDirectory()).resolve(config.logPath()));
        if (c.getLifecycle() != null && c.getLifecycle().getPostStart() != null) {
            // Synchronous, as upstream's startContainer: the next container waits for this hook.
            try {
                hooks.run(id, pod, c, c.getLifecycle().getPostStart(), HandlerRunner.NO_TIMEOUT);
            } catch (HookException e) {
                log.error("Failed to execute PostStartHook of container {} in pod {}: {}", name, PodSpecs.format(pod),
                        e.getMessage());
                // Upstream (since 1.26) keeps the hook's output out of the event so that no secret leaks.
                recorder.event(ref, EventRecorder.WARNING, "FailedPostStartHook", "PostStartHook failed");
                killer.killContainer(pod, id, name, "FailedPostStartHook", REASON_FAILED_POST_START_HOOK, null);
                return new SyncResult.StartResult(name, RuntimeManager.POST_START_HOOK_ERROR, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new SyncResult.StartResult(name, RuntimeManager.POST_START_HOOK_ERROR, "PostStartHook of container " + name
                        + " was interrupted");
            }
        }
        return new SyncResult.StartResult(name, "", "");
    }

    /** Upstream {@code getImageUser}: the runtime's status of the container's image, as the spec names it. */
    private ImageUser imageUser(Container c) throws ContainerConfigFactory.ConfigException {
        try {
            return ImageUser.of(images.imageStatus(c.getImage()));
        } catch (RuntimeException e) {
            throw new ContainerConfigFactory.ConfigException(e.getMessage());
        }
    }

    /** After an agent restart with containers gone, continue counting from the log files left behind. */
    private static int restartCountFromLogs(PodSandboxConfig sandboxConfig, String name) {
        Path dir = Path.of(sandboxConfig.logDirectory()).resolve(name);
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        int max = -1;
        try (var s = Files.list(dir)) {
            for (Path p : s.toList()) {
                String f = p.getFileName().toString();
                if (f.matches("\\d+\\.log")) {
                    max = Math.max(max, Integer.parseInt(f.substring(0, f.length() - 4)));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return max + 1;
    }

    /**
     * How long the named container's crash-loop back-off still runs, or empty when it is not backing off
     * from a known exit (no exited instance, or no such container in the spec).
     */
    Optional<Duration> crashLoopRemaining(Pod pod, RuntimePodStatus podStatus, String containerName) {
        Optional<ContainerStatus> exited = podStatus.containersByName(containerName).stream()
                .filter(s -> s.state() == State.EXITED && s.finishedAt() != null).findFirst();
        Optional<Container> spec = PodSpecs.findContainer(pod, containerName);
        if (exited.isEmpty() || spec.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(crashBackoff.remaining(backoffKey(pod, spec.get()), exited.get().finishedAt()));
    }

    static String backoffKey(Pod pod, Container c) {
        var m = pod.getMetadata();
        return m.getName() + "_" + m.getNamespace() + "_" + m.getUid() + "_" + c.getName() + "_" + ContainerHash.of(c);
    }

    private Path terminationMessageFile(Pod pod, String containerName) throws IOException {
        Path dir = dirs.containerDir(pod.getMetadata().getUid(), containerName);
        Files.createDirectories(dir);
        byte[] rnd = new byte[4];
        ThreadLocalRandom.current().nextBytes(rnd);
        Path f = dir.resolve(HexFormat.of().formatHex(rnd));
        Files.createFile(f);
        // The container may run as any user and must be able to write its message.
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-rw-rw-"));
        return f;
    }

    /** {@code /var/log/containers/<pod>_<ns>_<container>-<id>.log} -> the container's log under the pod log dir. */
    private void linkLegacyLog(Pod pod, String container, String id, Path target) {
        Path link = containerLogsDir.resolve(pod.getMetadata().getName() + "_" + pod.getMetadata().getNamespace()
                + "_" + container + "-" + id + ".log");
        try {
            Files.createDirectories(containerLogsDir);
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, target);
        } catch (IOException e) {
            log.warn("Failed to create legacy log link {}: {}", link, e.getMessage());
        }
    }


    /** Go's duration format for whole seconds ({@code 40s}, {@code 5m0s}), as the back-off message prints it. */
    static String goDuration(Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return s + "s";
        }
        long m = s / 60;
        if (m < 60) {
            return m + "m" + (s % 60) + "s";
        }
        return (m / 60) + "h" + (m % 60) + "m" + (s % 60) + "s";
    }
}
