package io.jkubelet.cri;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

/**
 * A client of Kubernetes' channel protocol over WebSocket ({@code v4.channel.k8s.io}), as the CRI streaming server of
 * containerd and CRI-O serves exec and attach: every binary message begins with its channel (0 stdin, 1 stdout,
 * 2 stderr, 3 the final status as JSON, 4 terminal resizes). Output is written to the streams as it arrives; the
 * session ends when the server closes it.
 */
final class ChannelWebSocket implements WebSocket.Listener {
    static final String PROTOCOL = "v4.channel.k8s.io";
    static final int STDIN = 0;
    static final int STDOUT = 1;
    static final int STDERR = 2;
    static final int ERROR = 3;
    static final int RESIZE = 4;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final OutputStream stdout;
    private final OutputStream stderr;
    private final ByteArrayOutputStream message = new ByteArrayOutputStream();
    private final ByteArrayOutputStream status = new ByteArrayOutputStream();
    private final CompletableFuture<String> closed = new CompletableFuture<>();
    private WebSocket socket;

    private ChannelWebSocket(OutputStream stdout, OutputStream stderr) {
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** Opens a session at the streaming server's {@code url} (http: as the CRI gives it). */
    static ChannelWebSocket open(String url, OutputStream stdout, OutputStream stderr) throws IOException, InterruptedException {
        ChannelWebSocket session = new ChannelWebSocket(stdout, stderr);
        URI uri = URI.create(url.replaceFirst("^http", "ws"));
        try {
            session.socket = HTTP.newWebSocketBuilder().subprotocols(PROTOCOL).connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(uri, session).get();
        } catch (ExecutionException e) {
            throw new IOException("streaming server at " + url + ": " + e.getCause().getMessage(), e.getCause());
        }
        return session;
    }

    /** Sends {@code data} on {@code channel} (stdin, or a resize as JSON), waiting until it is written. */
    void send(int channel, byte[] data, int length) throws IOException, InterruptedException {
        ByteBuffer frame = ByteBuffer.allocate(length + 1).put((byte) channel).put(data, 0, length).flip();
        try {
            socket.sendBinary(frame, true).get();
        } catch (ExecutionException e) {
            throw new IOException("sending to the streaming server: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /**
     * Waits until the server ends the session.
     *
     * @return the final status's JSON (channel 3), empty when the server sent none
     */
    String awaitEnd() throws InterruptedException, IOException {
        try {
            return closed.get();
        } catch (ExecutionException e) {
            throw new IOException("streaming session failed: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            abort();
            throw e;
        }
    }

    void abort() {
        socket.abort();
    }

    @Override
    public void onOpen(WebSocket webSocket) {
        webSocket.request(1);
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        message.writeBytes(bytes);
        if (last) {
            byte[] whole = message.toByteArray();
            message.reset();
            try {
                deliver(whole);
            } catch (IOException e) {
                closed.completeExceptionally(e);
                webSocket.abort();
                return null;
            }
        }
        webSocket.request(1);
        return null;
    }

    private void deliver(byte[] whole) throws IOException {
        if (whole.length < 2) {
            return; // the server opens each channel with an empty message
        }
        int channel = whole[0];
        switch (channel) {
            case STDOUT -> write(stdout, whole);
            case STDERR -> write(stderr != null ? stderr : stdout, whole);
            case ERROR -> status.write(whole, 1, whole.length - 1);
            default -> { } // nothing else is sent to a client
        }
    }

    private static void write(OutputStream out, byte[] whole) throws IOException {
        if (out != null) {
            out.write(whole, 1, whole.length - 1);
            out.flush();
        }
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closed.complete(status.toString(StandardCharsets.UTF_8));
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        if (!closed.isDone()) {
            if (status.size() > 0) {
                closed.complete(status.toString(StandardCharsets.UTF_8)); // the server closed without a close frame
            } else {
                closed.completeExceptionally(error);
            }
        }
    }
}
