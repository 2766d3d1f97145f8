package io.jkubelet.cri;

import io.jkubelet.core.runtime.StreamingIo;
import io.jkubelet.core.runtime.TerminalSize;
import io.jkubelet.cri.v1.CriApi;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Exec and attach through the runtime's streaming server, as upstream's kubelet proxies them: the CRI's Exec or
 * Attach call gives a URL, and the session runs there over the channel protocol ({@link ChannelWebSocket}). The
 * client's stdin and terminal resizes are copied on threads of their own; the call returns when the server ends
 * the session.
 */
final class CriStreaming {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final CriCalls calls;

    CriStreaming(CriCalls calls) {
        this.calls = calls;
    }

    int exec(String containerId, List<String> command, StreamingIo io) throws InterruptedException {
        if (command == null || command.isEmpty()) {
            throw new IllegalArgumentException("exec in container " + containerId + ": the command is empty");
        }
        String url = calls.runtime("Exec", containerId, s -> s.exec(CriApi.ExecRequest.newBuilder()
                .setContainerId(containerId).addAllCmd(command).setTty(io.tty()).setStdin(io.stdin() != null)
                .setStdout(io.stdout() != null).setStderr(io.stderr() != null).build())).getUrl();
        String status = session(url, io, "exec in container " + containerId);
        return exitCode(status, containerId);
    }

    void attach(String containerId, StreamingIo io) throws InterruptedException {
        String url = calls.runtime("Attach", containerId, s -> s.attach(CriApi.AttachRequest.newBuilder()
                .setContainerId(containerId).setTty(io.tty()).setStdin(io.stdin() != null)
                .setStdout(io.stdout() != null).setStderr(io.stderr() != null).build())).getUrl();
        session(url, io, "attach to container " + containerId);
    }

    private String session(String url, StreamingIo io, String what) throws InterruptedException {
        ChannelWebSocket socket;
        try {
            socket = ChannelWebSocket.open(url, io.stdout(), io.stderr());
        } catch (IOException e) {
            throw new CriCallException(what + ": " + e.getMessage(), e);
        }
        Thread stdin = io.stdin() == null ? null : Thread.ofVirtual().name("cri-stdin").start(() -> copyStdin(io, socket));
        Thread resizes = io.tty() ? Thread.ofVirtual().name("cri-resize").start(() -> copyResizes(io, socket)) : null;
        try {
            return socket.awaitEnd();
        } catch (IOException e) {
            throw new CriCallException(what + ": " + e.getMessage(), e);
        } finally {
            if (stdin != null) {
                stdin.interrupt();
            }
            if (resizes != null) {
                resizes.interrupt();
            }
        }
    }

    private static void copyStdin(StreamingIo io, ChannelWebSocket socket) {
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = io.stdin().read(buffer)) >= 0) {
                socket.send(ChannelWebSocket.STDIN, buffer, n);
            }
        } catch (IOException | InterruptedException e) {
            // The client or the session went away: the session's end is what the caller waits for.
        }
    }

    private static void copyResizes(StreamingIo io, ChannelWebSocket socket) {
        try {
            TerminalSize size;
            while ((size = io.resize().next()) != null) {
                byte[] json = ("{\"Width\":" + size.width() + ",\"Height\":" + size.height() + "}")
                        .getBytes(StandardCharsets.UTF_8);
                socket.send(ChannelWebSocket.RESIZE, json, json.length);
            }
        } catch (IOException | InterruptedException e) {
            // As above.
        }
    }

    /**
     * The exit code from the final status: {@code Success} is 0, {@code NonZeroExitCode} carries it in its
     * {@code ExitCode} cause; any other failure is the server's message.
     */
    static int exitCode(String status, String containerId) {
        if (status.isBlank()) {
            throw new CriCallException("exec in container " + containerId + ": the streaming server ended the session"
                    + " without a status", null);
        }
        JsonNode node = JSON.readTree(status);
        if ("Success".equals(node.path("status").asText())) {
            return 0;
        }
        if ("NonZeroExitCode".equals(node.path("reason").asText())) {
            for (JsonNode cause : node.path("details").path("causes")) {
                if ("ExitCode".equals(cause.path("reason").asText())) {
                    return Integer.parseInt(cause.path("message").asText());
                }
            }
        }
        throw new CriCallException("exec in container " + containerId + ": " + node.path("message").asText(status), null);
    }
}
