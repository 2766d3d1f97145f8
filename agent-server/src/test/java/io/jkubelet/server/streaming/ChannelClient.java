package io.jkubelet.server.streaming;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A WebSocket client for Kubernetes' channel framing, on the JDK's own {@link WebSocket}: what kubectl's
 * WebSocket executor does, in a few lines. Messages are decoded from the binary or base64 framing.
 */
public final class ChannelClient implements AutoCloseable {

    /** One message: its channel and payload. */
    public record Message(int channel, byte[] data) {
        public String text() {
            return new String(data, StandardCharsets.UTF_8);
        }
    }

    private static final Message CLOSED = new Message(-1, new byte[0]);
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final HttpClient http;
    private final LinkedBlockingQueue<Message> messages = new LinkedBlockingQueue<>();
    private final boolean base64;
    private final WebSocket socket;
    public final String subprotocol;

    private ChannelClient(HttpClient http, URI uri, String... subprotocols) throws Exception {
        this.http = http;
        this.base64 = subprotocols.length > 0 && subprotocols[0].contains("base64");
        WebSocket.Builder builder = http.newWebSocketBuilder();
        if (subprotocols.length > 0) {
            builder.subprotocols(subprotocols[0], java.util.Arrays.copyOfRange(subprotocols, 1, subprotocols.length));
        }
        this.socket = builder.buildAsync(uri, new Listener()).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        this.subprotocol = socket.getSubprotocol();
    }

    static ChannelClient connect(URI uri, String... subprotocols) throws Exception {
        return new ChannelClient(HttpClient.newHttpClient(), uri, subprotocols);
    }

    /** Connects with {@code http} (e.g. one set up for TLS), which the client closes. */
    public static ChannelClient connect(HttpClient http, URI uri, String... subprotocols) throws Exception {
        return new ChannelClient(http, uri, subprotocols);
    }

    /** Sends {@code data} on {@code channel}. */
    public void send(int channel, byte[] data) throws Exception {
        if (base64) {
            socket.sendText((char) ('0' + channel) + Base64.getEncoder().encodeToString(data), true).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } else {
            ByteBuffer frame = ByteBuffer.allocate(data.length + 1);
            frame.put((byte) channel).put(data).flip();
            socket.sendBinary(frame, true).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    public void send(int channel, String text) throws Exception {
        send(channel, text.getBytes(StandardCharsets.UTF_8));
    }

    /** The next message; null once the server has closed the connection. */
    public Message next() throws InterruptedException {
        Message m = messages.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
        if (m == null) {
            throw new AssertionError("no message from the server within " + WAIT);
        }
        return m == CLOSED ? null : m;
    }

    /** Everything received until the server closed the connection, joined per channel. */
    public Map<Integer, String> readUntilClosed() throws InterruptedException {
        Map<Integer, ByteArrayOutputStream> joined = new HashMap<>();
        for (Message m; (m = next()) != null; ) {
            joined.computeIfAbsent(m.channel(), c -> new ByteArrayOutputStream()).writeBytes(m.data());
        }
        Map<Integer, String> result = new HashMap<>();
        joined.forEach((c, out) -> result.put(c, out.toString(StandardCharsets.UTF_8)));
        return result;
    }

    @Override
    public void close() {
        socket.abort();
        http.close();
    }

    private final class Listener implements WebSocket.Listener {
        private final ByteArrayOutputStream partial = new ByteArrayOutputStream();

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            partial.writeBytes(bytes);
            if (last) {
                byte[] message = partial.toByteArray();
                partial.reset();
                messages.add(new Message(message[0] & 0xFF, java.util.Arrays.copyOfRange(message, 1, message.length)));
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.writeBytes(data.toString().getBytes(StandardCharsets.US_ASCII));
            if (last) {
                String message = partial.toString(StandardCharsets.US_ASCII);
                partial.reset();
                messages.add(new Message(message.charAt(0) - '0', Base64.getDecoder().decode(message.substring(1))));
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            messages.add(CLOSED);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            messages.add(CLOSED);
        }
    }
}
