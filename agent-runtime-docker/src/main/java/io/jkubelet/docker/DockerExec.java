package io.jkubelet.docker;

import io.jkubelet.core.runtime.ExecResult;
import io.jkubelet.docker.engine.DockerEngine;
import io.jkubelet.docker.engine.ExecConfig;
import io.jkubelet.docker.engine.ExecInspect;
import io.jkubelet.docker.engine.HijackedStream;
import io.jkubelet.docker.engine.LogFrames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code execSync} on Docker: create an exec, attach to its output, and wait for it no longer than the timeout.
 *
 * <p>Before kubelet 1.20 dockershim ignored exec timeouts, so a hanging exec probe blocked its prober forever
 * (kubernetes#94080). Here the wait is bounded; and because Docker has no way to stop an exec, a command that
 * outlives its timeout is killed (with its children) from the host, so timed-out probes do not pile up
 * processes in the container. The kill needs the daemon on this host (a {@code unix://} endpoint) and the
 * agent in the host's PID namespace; the process is killed only when its cgroup names the container.
 */
final class DockerExec {
    private static final Logger log = LoggerFactory.getLogger(DockerExec.class);

    /** The most output kept per exec, as the CRI's 16 MiB message limit. */
    static final int MAX_OUTPUT_BYTES = 16 << 20;
    /** How long Docker may take to mark a finished exec as not running. */
    private static final Duration EXIT_CODE_WAIT = Duration.ofSeconds(5);

    private final DockerEngine engine;
    private final boolean daemonIsLocal;

    DockerExec(DockerEngine engine, boolean daemonIsLocal) {
        this.engine = engine;
        this.daemonIsLocal = daemonIsLocal;
    }

    ExecResult execSync(String containerId, List<String> command, Duration timeout) {
        if (command == null || command.isEmpty()) {
            throw new IllegalArgumentException("exec in container " + containerId + ": the command is empty");
        }
        String what = "exec " + command + " in container " + containerId;
        ExecConfig config = new ExecConfig(false, true, true, false, command, null, null, null);
        String execId = DockerCalls.call(what, () -> engine.execs().create(containerId, config).id());
        OutputCollector output = new OutputCollector();
        try (HijackedStream stream = DockerCalls.call(what, () -> engine.execs().start(execId, false))) {
            Thread reader = Thread.ofVirtual().name("exec-output").start(() -> output.readAll(stream));
            if (!reader.join(Duration.ofMillis(Math.max(1, timeout.toMillis())))) {
                killTimedOut(containerId, execId, command, timeout);
                return new ExecResult(-1, output.stdout(), output.stderr(), true);
            }
            if (output.failure != null) {
                throw new DockerCallException(what + ": reading its output failed: " + output.failure.getMessage(), 0,
                        output.failure);
            }
            return new ExecResult(exitCode(containerId, execId), output.stdout(), output.stderr(), false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            killTimedOut(containerId, execId, command, timeout);
            throw new IllegalStateException(what + " was interrupted", e);
        }
    }

    int exitCode(String containerId, String execId) throws InterruptedException {
        long deadline = System.nanoTime() + EXIT_CODE_WAIT.toNanos();
        while (true) {
            ExecInspect inspect = DockerCalls.call("inspect exec " + execId + " in container " + containerId,
                    () -> engine.execs().inspect(execId));
            if (!Boolean.TRUE.equals(inspect.running()) && inspect.exitCode() != null) {
                return inspect.exitCode().intValue();
            }
            if (System.nanoTime() > deadline) {
                throw new DockerCallException("exec " + execId + " in container " + containerId
                        + ": its output ended but Docker still reports it running", 0, null);
            }
            Thread.sleep(10);
        }
    }

    private void killTimedOut(String containerId, String execId, List<String> command, Duration timeout) {
        if (!daemonIsLocal) {
            log.warn("exec {} in container {} timed out after {}; the Docker daemon is not local, so the process"
                    + " is left running", command, containerId, timeout);
            return;
        }
        try {
            ExecInspect inspect = engine.execs().inspect(execId);
            Long pid = inspect.pid();
            if (!Boolean.TRUE.equals(inspect.running()) || pid == null || pid <= 0) {
                return;
            }
            if (!belongsToContainer(pid, containerId)) {
                log.warn("exec {} in container {} timed out, but process {} is not visible in that container's"
                        + " cgroup from here; leaving it", command, containerId, pid);
                return;
            }
            ProcessHandle.of(pid).ifPresent(process -> {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            });
            log.debug("Killed exec {} (pid {}) in container {} after its {} timeout", command, pid, containerId, timeout);
        } catch (RuntimeException e) {
            log.warn("exec {} in container {} timed out and could not be killed: {}", command, containerId,
                    DockerErrors.message(e));
        }
    }

    /** Whether the host process runs in the container's cgroup, so we never kill someone else's process. */
    static boolean belongsToContainer(long pid, String containerId) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "cgroup")).contains(containerId);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Collects stdout and stderr up to {@link #MAX_OUTPUT_BYTES} together. */
    private static final class OutputCollector {
        private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        private int kept;
        /** Why the output could not be read to its end, or null. */
        volatile IOException failure;

        /** Reads the exec's frames until its output ends, the stream is closed or it breaks. */
        void readAll(HijackedStream stream) {
            LogFrames frames = new LogFrames(stream.output());
            try {
                for (LogFrames.Frame frame; (frame = frames.next()) != null; ) {
                    keep(frame);
                }
            } catch (IOException e) {
                failure = e;
            }
        }

        private synchronized void keep(LogFrames.Frame frame) {
            byte[] payload = frame.payload();
            int n = Math.min(payload.length, MAX_OUTPUT_BYTES - kept);
            if (n <= 0) {
                return;
            }
            (frame.stream() == LogFrames.StreamType.STDERR ? stderr : stdout).write(payload, 0, n);
            kept += n;
        }

        synchronized byte[] stdout() {
            return stdout.toByteArray();
        }

        synchronized byte[] stderr() {
            return stderr.toByteArray();
        }
    }
}
