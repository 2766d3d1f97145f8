package io.jkubelet.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import io.jkubelet.core.runtime.PodSandboxStatus;
import io.jkubelet.core.runtime.PodIpPortForward;
import io.jkubelet.core.runtime.SocketStreams;
import io.jkubelet.core.runtime.StreamingIo;
import io.jkubelet.core.runtime.TerminalSize;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.EOFException;
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
 * <p>Exec and attach: the exec is created, inspected and resized through docker-java; its start, and an
 * attach, run over a {@link HijackedStream}. Without a TTY, Docker multiplexes stdout and stderr in
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

    /** Docker's multiplexed stream header: stream type, three zero bytes, big-endian payload length. */
    private static final int FRAME_HEADER = 8;

    private final DockerClient requests;
    private final String endpoint;
    private final DockerExec exec;
    private final Function<String, PodSandboxStatus> sandboxStatus;

    DockerStreaming(DockerClient requests, String endpoint, DockerExec exec, Function<String, PodSandboxStatus> sandboxStatus) {
        this.requests = requests;
        this.endpoint = endpoint;
        this.exec = exec;
        this.sandboxStatus = sandboxStatus;
    }

    int exec(String containerId, List<String> command, StreamingIo io) throws InterruptedException {
        if (command == null || command.isEmpty()) {
            throw new IllegalArgumentException("exec in container " + containerId + ": the command is empty");
        }
        String what = "exec " + command + " in container " + containerId;
        String execId;
        try {
            execId = requests.execCreateCmd(containerId).withCmd(command.toArray(String[]::new))
                    .withAttachStdin(io.stdin() != null).withAttachStdout(io.stdout() != null)
                    .withAttachStderr(io.stderr() != null).withTty(io.tty()).exec().getId();
        } catch (RuntimeException e) {
            throw DockerErrors.translate(what, e);
        }
        try (HijackedStream stream = open("/exec/" + execId + "/start", "{\"Detach\":false,\"Tty\":" + io.tty() + "}", what)) {
            pump(stream, io, io.tty(), size -> requests.resizeExecCmd(execId).withSize(size.height(), size.width()).exec());
        }
        return exec.exitCode(containerId, execId);
    }

    void attach(String containerId, StreamingIo io) throws InterruptedException {
        String what = "attach to container " + containerId;
        InspectContainerResponse inspect;
        try {
            inspect = requests.inspectContainerCmd(containerId).exec();
        } catch (RuntimeException e) {
            throw DockerErrors.translate(what, e);
        }
        // The output's framing follows the container's own TTY setting, not the client's request.
        boolean containerTty = inspect.getConfig() != null && Boolean.TRUE.equals(inspect.getConfig().getTty());
        String path = "/containers/" + containerId + "/attach?stream=1&stdin=" + flag(io.stdin() != null)
                + "&stdout=" + flag(io.stdout() != null) + "&stderr=" + flag(io.stderr() != null);
        try (HijackedStream stream = open(path, "", what)) {
            pump(stream, io, containerTty, size -> requests.resizeContainerCmd(containerId).withSize(size.height(), size.width()).exec());
        }
    }

    void portForward(String podSandboxId, int port, InputStream in, OutputStream out) throws IOException, InterruptedException {
        PodIpPortForward.forward(sandboxStatus.apply(podSandboxId), port, in, out);
    }

    private HijackedStream open(String path, String body, String what) {
        try {
            return HijackedStream.open(endpoint, path, body, what);
        } catch (IOException e) {
            throw new DockerCallException(what + ": " + e.getMessage(), 0, e);
        }
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
        byte[] header = new byte[FRAME_HEADER];
        byte[] buf = new byte[32 * 1024];
        while (true) {
            int got = from.readNBytes(header, 0, FRAME_HEADER);
            if (got == 0) {
                return;
            }
            if (got < FRAME_HEADER) {
                throw new EOFException("Docker's output stream ended inside a frame header");
            }
            int length = ((header[4] & 0xFF) << 24) | ((header[5] & 0xFF) << 16) | ((header[6] & 0xFF) << 8) | (header[7] & 0xFF);
            OutputStream target = header[0] == 2 ? stderr : stdout;
            while (length > 0) {
                int n = from.read(buf, 0, Math.min(buf.length, length));
                if (n < 0) {
                    throw new EOFException("Docker's output stream ended inside a frame");
                }
                if (target != null) {
                    target.write(buf, 0, n);
                }
                length -= n;
            }
            if (target != null) {
                target.flush();
            }
        }
    }

    private static InterruptedException interrupted(Exception cause) {
        InterruptedException e = new InterruptedException("streaming session ended by its client");
        e.initCause(cause);
        return e;
    }

    private static String flag(boolean value) {
        return value ? "1" : "0";
    }
}
