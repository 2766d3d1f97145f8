package io.jkubelet.server.streaming;

import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.StreamingIo;
import io.jkubelet.core.runtime.TerminalSize;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * A runtime for the streaming endpoints' tests: one pod {@code default/web} (uid {@code uid-1}) whose
 * container {@code app} runs, with a few scripted commands that behave as their real counterparts do.
 */
final class FakeStreaming implements ContainerStreaming {

    static final String CONTAINER_ID = "c-app";
    static final String SANDBOX_ID = "s-web";

    /** Counts attach sessions that have ended (by their client leaving or their process ending). */
    final CountDownLatch attachEnded = new CountDownLatch(1);
    final Map<Integer, Integer> forwardedPorts = new ConcurrentHashMap<>();

    @Override
    public Optional<String> findRunningContainer(String namespace, String podName, String containerName) {
        return namespace.equals("default") && podName.equals("web") && containerName.equals("app")
                ? Optional.of(CONTAINER_ID) : Optional.empty();
    }

    @Override
    public Optional<String> findSandbox(String podUid) {
        return podUid.equals("uid-1") ? Optional.of(SANDBOX_ID) : Optional.empty();
    }

    @Override
    public int exec(String containerId, List<String> command, StreamingIo io) throws InterruptedException {
        try {
            switch (String.join(" ", command)) {
                case "sh -c echo out; echo err >&2; exit 3" -> {
                    io.stdout().write("out\n".getBytes(StandardCharsets.UTF_8));
                    if (io.stderr() != null) {
                        io.stderr().write("err\n".getBytes(StandardCharsets.UTF_8));
                    }
                    return 3;
                }
                case "cat" -> {
                    io.stdin().transferTo(io.stdout());
                    return 0;
                }
                case "stty size" -> {
                    TerminalSize size = io.resize().next();
                    io.stdout().write((size.height() + " " + size.width() + "\r\n").getBytes(StandardCharsets.UTF_8));
                    return 0;
                }
                case "true" -> {
                    return 0;
                }
                case "head -c 4194304 /dev/zero" -> {
                    byte[] chunk = new byte[64 * 1024];
                    for (int i = 0; i < 64; i++) {
                        io.stdout().write(chunk);
                    }
                    return 0;
                }
                default -> throw new NotFoundException("exec: \"" + command.getFirst() + "\": executable file not found in $PATH");
            }
        } catch (java.io.InterruptedIOException e) {
            throw new InterruptedException("client left");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The main process echoes its stdin until the client leaves. */
    @Override
    public void attach(String containerId, StreamingIo io) throws InterruptedException {
        try {
            byte[] buf = new byte[1024];
            for (int n; (n = io.stdin().read(buf)) >= 0; ) {
                io.stdout().write(buf, 0, n);
            }
        } catch (java.io.InterruptedIOException e) {
            throw new InterruptedException("client left");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            attachEnded.countDown();
        }
    }

    /** Port 80 answers each chunk with "echo:<chunk>"; every other port refuses. */
    @Override
    public void portForward(String podSandboxId, int port, InputStream in, OutputStream out) throws IOException {
        forwardedPorts.merge(port, 1, Integer::sum);
        if (port != 80) {
            throw new IOException("connect to 172.17.0.9:" + port + ": Connection refused");
        }
        byte[] buf = new byte[1024];
        for (int n; (n = in.read(buf)) >= 0; ) {
            out.write(("echo:" + new String(buf, 0, n, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
        }
    }
}
