package io.jkubelet.server.streaming;

import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.StreamingIo;
import io.jkubelet.core.runtime.TerminalSizeQueue;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One exec or attach (upstream's remotecommand {@code ServeExec}/{@code ServeAttach}) once its connection
 * speaks WebSocket or SPDY: it hands the client's streams to the runtime and reports how the command
 * ended, in the encoding the negotiated protocol calls for.
 */
final class RemoteCommandSession {

    private static final Logger log = LoggerFactory.getLogger(RemoteCommandSession.class);

    static final int STDIN = 0;
    static final int STDOUT = 1;
    static final int STDERR = 2;
    static final int ERROR = 3;
    static final int RESIZE = 4;

    /** The stream protocols served over SPDY, in upstream's order of preference. */
    static final List<String> SPDY_PROTOCOLS =
            List.of("v5.channel.k8s.io", "v4.channel.k8s.io", "v3.channel.k8s.io", "v2.channel.k8s.io");

    /** How long a SPDY client may take to open the streams its options call for (upstream's streamCreationTimeout). */
    static final Duration STREAM_CREATION_TIMEOUT = Duration.ofSeconds(30);

    private final ContainerStreaming runtime;
    private final String containerId;
    private final List<String> command;
    private final RemoteCommandOptions options;

    /** @param command the command of an exec; null for an attach */
    RemoteCommandSession(ContainerStreaming runtime, String containerId, List<String> command, RemoteCommandOptions options) {
        this.runtime = runtime;
        this.containerId = containerId;
        this.command = command;
        this.options = options;
    }

    /** Which WebSocket channels the session reads: stdin when asked for, resize with a TTY. */
    boolean[] readableChannels() {
        boolean[] readable = new boolean[RESIZE + 1];
        readable[STDIN] = options.stdin();
        readable[RESIZE] = options.tty();
        return readable;
    }

    /** Which SPDY stream types the session reads. */
    static boolean readsSpdyStream(String type) {
        return type.equals("stdin") || type.equals("resize");
    }

    void overWebSocket(WebSocketChannels channels) throws InterruptedException, IOException {
        ChannelOutput stdout = options.stdout() ? channels.output(STDOUT) : null;
        ChannelOutput stderr = options.stderr() ? channels.output(STDERR) : null;
        ChannelOutput error = channels.output(ERROR);
        // An empty message on the lowest writable channel tells the client the session is up.
        (stdout != null ? stdout : stderr != null ? stderr : error).send(new byte[0], 0, 0);
        StreamingIo io = new StreamingIo(options.stdin() ? channels.input(STDIN) : null, stdout, stderr, options.tty(),
                options.tty() ? new ResizeEvents(channels.input(RESIZE)) : TerminalSizeQueue.NONE);
        RemoteCommandStatus status = run(io);
        byte[] report = channels.protocol().statusJson ? status.toJson() : status.toV1();
        if (report.length > 0) {
            error.write(report);
        }
    }

    /**
     * Over SPDY: waits for the streams the options call for (error always; stdin, stdout, stderr as asked;
     * resize with a TTY from v3), runs the command, reports on the error stream and ends every output.
     */
    SpdySession.Body overSpdy(String version) {
        return streams -> {
            Set<String> expected = new HashSet<>(List.of("error"));
            if (options.stdin()) {
                expected.add("stdin");
            }
            if (options.stdout()) {
                expected.add("stdout");
            }
            if (options.stderr()) {
                expected.add("stderr");
            }
            if (options.tty() && !version.equals("v2.channel.k8s.io")) {
                expected.add("resize");
            }
            Map<String, SpdyStreams.Stream> got = new HashMap<>();
            long deadline = System.nanoTime() + STREAM_CREATION_TIMEOUT.toNanos();
            while (!got.keySet().containsAll(expected)) {
                SpdyStreams.Stream stream = streams.arrivals.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (stream == null) {
                    log.debug("timed out waiting for client to create streams {} (has {})", expected, got.keySet());
                    return;
                }
                got.put(stream.type(), stream);
            }
            OutputStream stdout = options.stdout() ? streams.output(got.get("stdout").id()) : null;
            OutputStream stderr = options.stderr() ? streams.output(got.get("stderr").id()) : null;
            OutputStream error = streams.output(got.get("error").id());
            StreamingIo io = new StreamingIo(options.stdin() ? got.get("stdin").input() : null, stdout, stderr, options.tty(),
                    expected.contains("resize") ? new ResizeEvents(got.get("resize").input()) : TerminalSizeQueue.NONE);
            RemoteCommandStatus status = run(io);
            boolean json = version.equals("v4.channel.k8s.io") || version.equals("v5.channel.k8s.io");
            byte[] report = json ? status.toJson() : status.toV1();
            if (report.length > 0) {
                error.write(report);
            }
            for (OutputStream out : new OutputStream[] {stdout, stderr, error}) {
                if (out != null) {
                    out.close();
                }
            }
        };
    }

    private RemoteCommandStatus run(StreamingIo io) throws InterruptedException {
        return command == null ? runAttach(io) : runExec(io);
    }

    private RemoteCommandStatus runExec(StreamingIo io) throws InterruptedException {
        try {
            int exitCode = runtime.exec(containerId, command, io);
            return exitCode == 0 ? RemoteCommandStatus.success() : RemoteCommandStatus.nonZeroExit(command, exitCode);
        } catch (NotFoundException | IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            return RemoteCommandStatus.internalError("error executing command in container: " + e.getMessage());
        } catch (RuntimeException e) {
            log.warn("exec {} in container {} failed", command, containerId, e);
            return RemoteCommandStatus.internalError("error executing command in container: " + e.getMessage());
        }
    }

    private RemoteCommandStatus runAttach(StreamingIo io) throws InterruptedException {
        try {
            runtime.attach(containerId, io);
            return RemoteCommandStatus.success();
        } catch (RuntimeException e) {
            log.debug("attach to container {} failed", containerId, e);
            return RemoteCommandStatus.internalError("error attaching to container: " + e.getMessage());
        }
    }
}
