package io.jkubelet.docker;

import io.jkubelet.docker.engine.ContainerInspect;
import io.jkubelet.docker.engine.DockerEngine;
import io.jkubelet.docker.engine.ExecConfig;
import io.jkubelet.docker.engine.HijackedStream;
import io.jkubelet.docker.engine.LogFrames;
import io.jkubelet.core.runtime.PodSandboxStatus;
import io.jkubelet.core.runtime.PodIpPortForward;
import io.jkubelet.core.runtime.SocketStreams;
import io.jkubelet.core.runtime.StreamingIo;
import io.jkubelet.core.runtime.TerminalSize;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Streaming exec, attach and port-forward on Docker (the part of the CRI streaming server that dockershim
 * served).
 *
 * <p>Exec and attach: the exec is created, started and resized through jkubelet's Engine API client; its start,
 * and an attach, run over a {@link HijackedStream}. Without a TTY, Docker multiplexes stdout and stderr in
 * 8-byte-headed frames; with one, the output is the terminal's raw bytes.
 *
 * <p>Port-forward: the agent connects to the pod's IP ({@code 127.0.0.1} for a {@code hostNetwork} pod).
 * The kubelet with dockershim instead entered the sandbox's network namespace ({@code nsenter -t <pid>
 * -n socat - TCP4:localhost:<port>}); connecting to the pod IP needs neither {@code socat} on the node
 * nor the agent in the host's PID namespace, but it cannot reach a server bound only to {@code
 * 127.0.0.1} inside the pod.
 */
final class DockerStreaming {
    private static final Logger log = LoggerFactory.getLogger(DockerStreaming.class);

    private final DockerEngine engine;
    private final DockerExec exec;
    private final Function<String, PodSandboxStatus> sandboxStatus;

    DockerStreaming(DockerEngine engine, DockerExec exec, Function<String, PodSandboxStatus> sandboxStatus) {
        this.engine = engine;
        this.exec = exec;
        this.sandboxStatus = sandboxStatus;
    }

    int exec(String containerId, List<String> command, StreamingIo io) throws InterruptedException {
        if (command == null || command.isEmpty()) {
            throw new IllegalArgumentException("exec in container " + containerId + ": the command is empty");
        }
        String what = "exec " + command + " in container " + containerId;
        ExecConfig config = new ExecConfig(io.stdin() != null, io.stdout() != null, io.stderr() != null, io.tty(),
                command, null, null, null);
        String execId = DockerCalls.call(what, () -> engine.execs().create(containerId, config).id());
        try (HijackedStream stream = DockerCalls.call(what, () -> engine.execs().start(execId, io.tty()))) {
            pump(stream, io, io.tty(), size -> engine.execs().resize(execId, size.height(), size.width()));
        }
        return exec.exitCode(containerId, execId);
    }

    void attach(String containerId, StreamingIo io) throws InterruptedException {
        String what = "attach to container " + containerId;
        ContainerInspect inspect = DockerCalls.call(what, () -> engine.containers().inspect(containerId));
        // The output's framing follows the container's own TTY setting, not the client's request.
        boolean containerTty = inspect.config() != null && Boolean.TRUE.equals(inspect.config().tty());
        try (HijackedStream stream = DockerCalls.call(what, () -> engine.containers().attach(containerId,
                io.stdin() != null, io.stdout() != null, io.stderr() != null))) {
            pump(stream, io, containerTty, size -> engine.containers().resize(containerId, size.height(), size.width()));
        }
    }

    void portForward(String podSandboxId, int port, InputStream in, OutputStream out) throws IOException, InterruptedException {
        PodIpPortForward.forward(sandboxStatus.apply(podSandboxId), port, in, out);
    }

    /**
     * Copies the client's stdin and resize events to the process and its output to the client until the
     * output ends.
     */
    private static void pump(HijackedStream stream, StreamingIo io, boolean rawOutput, Consumer<TerminalSize> resizer)
            throws InterruptedException {
        Thread stdin = io.stdin() == null ? null : Thread.ofVirtual().name("stream-stdin").start(() -> {
            try {
                OutputStream toProcess = stream.input();
                byte[] buf = new byte[8192];
                for (int n; (n = io.stdin().read(buf)) >= 0; ) {
                    toProcess.write(buf, 0, n);
                    toProcess.flush();
                }
                stream.closeStdin();
            } catch (IOException e) {
                log.debug("stdin of a streaming session ended: {}", e.toString());
            }
        });
        Thread resize = !io.tty() ? null : Thread.ofVirtual().name("stream-resize").start(() -> {
            try {
                for (TerminalSize size; (size = io.resize().next()) != null; ) {
                    try {
                        resizer.accept(size);
                    } catch (RuntimeException e) {
                        // A resize racing the process's start or end; the next one may work.
                        log.debug("resize to {} failed: {}", size, e.toString());
                    }
                }
            } catch (InterruptedException e) {
                // The session ended.
            }
        });
        try {
            if (rawOutput) {
                copy(stream.output(), io.stdout());
            } else {
                demultiplex(stream.output(), io.stdout(), io.stderr());
            }
        } catch (ClosedByInterruptException | InterruptedIOException e) {
            throw interrupted(e);
        } catch (IOException e) {
            if (Thread.interrupted()) {
                throw interrupted(e);
            }
            throw new UncheckedIOException(e);
        } finally {
            if (stdin != null) {
                stdin.interrupt();
            }
            if (resize != null) {
                resize.interrupt();
            }
        }
    }

    private static void copy(InputStream from, OutputStream to) throws IOException {
        byte[] buf = new byte[32 * 1024];
        for (int n; (n = from.read(buf)) >= 0; ) {
            if (to != null && n > 0) {
                to.write(buf, 0, n);
                to.flush();
            }
        }
    }

    /** Splits Docker's multiplexed output into stdout and stderr (a null target drops its bytes). */
    static void demultiplex(InputStream from, OutputStream stdout, OutputStream stderr) throws IOException {
        LogFrames frames = new LogFrames(from);
        for (LogFrames.Frame frame; (frame = frames.next()) != null; ) {
            OutputStream target = frame.stream() == LogFrames.StreamType.STDERR ? stderr : stdout;
            if (target != null) {
                target.write(frame.payload());
                target.flush();
            }
        }
    }

    private static InterruptedException interrupted(Exception cause) {
        InterruptedException e = new InterruptedException("streaming session ended by its client");
        e.initCause(cause);
        return e;
    }

}
