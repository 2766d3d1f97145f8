package io.jkubelet.server.streaming;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.spdy.DefaultSpdyDataFrame;
import io.netty.handler.codec.spdy.DefaultSpdySynStreamFrame;
import io.netty.handler.codec.spdy.SpdyDataFrame;
import io.netty.handler.codec.spdy.SpdyFrameCodec;
import io.netty.handler.codec.spdy.SpdySynStreamFrame;
import io.netty.handler.codec.spdy.SpdyVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A minimal SPDY/3.1 client as client-go's {@code spdy} round tripper behaves: an HTTP upgrade request,
 * then one client stream per purpose named by its {@code streamType} header. Frames are encoded and
 * decoded by Netty's codec in an {@link EmbeddedChannel}; the bytes travel over a plain socket.
 */
public final class SpdyClient implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final EmbeddedChannel codec = new EmbeddedChannel(new SpdyFrameCodec(SpdyVersion.SPDY_3_1));
    private final LinkedBlockingQueue<Object> frames = new LinkedBlockingQueue<>();
    public final String head;
    /** The streamtype header of each stream's SYN_REPLY, by stream id (absent when the reply had none). */
    public final Map<Integer, String> replies = new java.util.concurrent.ConcurrentHashMap<>();
    private int nextId = 1;

    private SpdyClient(Socket socket, String target, String... versions) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(20_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
        StringBuilder request = new StringBuilder("POST " + target + " HTTP/1.1\r\nHost: localhost\r\n"
                + "Connection: Upgrade, close\r\nUpgrade: SPDY/3.1\r\nContent-Length: 0\r\n");
        for (String v : versions) {
            request.append("X-Stream-Protocol-Version: ").append(v).append("\r\n");
        }
        out.write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
        head = ScriptedStreamingServer.readHead(in);
        if (head.startsWith("HTTP/1.1 101")) {
            Thread.ofVirtual().start(this::readFrames);
        }
    }

    static SpdyClient connect(int port, String target, String... versions) throws IOException {
        return new SpdyClient(new Socket(InetAddress.getLoopbackAddress(), port), target, versions);
    }

    /** Speaks over {@code socket} (e.g. a TLS socket), which the client closes. */
    public static SpdyClient connect(Socket socket, String target, String... versions) throws IOException {
        return new SpdyClient(socket, target, versions);
    }

    /** The rest of a refused upgrade's answer (its body). */
    public String body() throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    private void readFrames() {
        byte[] buf = new byte[8192];
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                synchronized (codec) {
                    codec.writeInbound(Unpooled.copiedBuffer(buf, 0, n));
                    for (Object f; (f = codec.readInbound()) != null; ) {
                        if (f instanceof io.netty.handler.codec.spdy.SpdySynReplyFrame reply) {
                            String type = reply.headers().getAsString("streamtype");
                            if (type != null) { // Go's streaming server replies without one
                                replies.put(reply.streamId(), type);
                            }
                        }
                        frames.add(f);
                    }
                }
            }
        } catch (IOException e) {
            // closed
        }
        frames.add("closed");
    }

    /** Opens a stream of {@code type} with extra headers; returns its id. */
    public int open(String type, Map<String, String> headers) throws IOException {
        int id = nextId;
        nextId += 2;
        SpdySynStreamFrame syn = new DefaultSpdySynStreamFrame(id, 0, (byte) 0);
        syn.headers().set("streamtype", type);
        headers.forEach((k, v) -> syn.headers().set(k, v));
        write(syn);
        return id;
    }

    public int open(String type) throws IOException {
        return open(type, Map.of());
    }

    public void send(int id, String data, boolean last) throws IOException {
        SpdyDataFrame frame = new DefaultSpdyDataFrame(id, Unpooled.copiedBuffer(data, StandardCharsets.UTF_8));
        frame.setLast(last);
        write(frame);
    }

    private void write(Object frame) throws IOException {
        synchronized (codec) {
            codec.writeOutbound(frame);
            for (ByteBuf b; (b = codec.readOutbound()) != null; ) {
                out.write(ByteBufUtil.getBytes(b));
                b.release();
            }
        }
        out.flush();
    }

    /** The data received per stream until every stream in {@code untilFin} has ended (FIN). */
    public Map<Integer, String> readUntilFin(Set<Integer> untilFin) throws InterruptedException {
        Map<Integer, ByteArrayOutputStream> data = new HashMap<>();
        java.util.Set<Integer> open = new java.util.HashSet<>(untilFin);
        while (!open.isEmpty()) {
            Object f = frames.poll(20, TimeUnit.SECONDS);
            if (f == null || f.equals("closed")) {
                throw new AssertionError("connection ended or silent with streams " + open + " still open; got " + texts(data));
            }
            if (f instanceof SpdyDataFrame d) {
                data.computeIfAbsent(d.streamId(), k -> new ByteArrayOutputStream()).writeBytes(ByteBufUtil.getBytes(d.content()));
                if (d.isLast()) {
                    open.remove(d.streamId());
                }
                d.release();
            }
        }
        return texts(data);
    }

    /**
     * The data received per stream until the server ends the connection, as client-go reads a session whose server
     * (Go's streaming server) closes the connection after the status instead of ending the error stream.
     */
    public Map<Integer, String> readUntilClosed() throws InterruptedException {
        Map<Integer, ByteArrayOutputStream> data = new HashMap<>();
        for (Object f; !"closed".equals(f = frames.poll(20, TimeUnit.SECONDS)); ) {
            if (f == null) {
                throw new AssertionError("connection silent and still open; got " + texts(data));
            }
            if (f instanceof SpdyDataFrame d) {
                data.computeIfAbsent(d.streamId(), k -> new ByteArrayOutputStream()).writeBytes(ByteBufUtil.getBytes(d.content()));
                d.release();
            }
        }
        return texts(data);
    }

    /**
     * The data received on stream {@code id} until it contains {@code text} (what other streams receive meanwhile is
     * dropped).
     */
    public String readUntil(int id, String text) throws InterruptedException {
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        while (!data.toString(StandardCharsets.UTF_8).contains(text)) {
            Object f = frames.poll(20, TimeUnit.SECONDS);
            if (f == null || f.equals("closed")) {
                throw new AssertionError("connection ended or silent before \"" + text + "\" on stream " + id + "; got "
                        + data.toString(StandardCharsets.UTF_8));
            }
            if (f instanceof SpdyDataFrame d) {
                if (d.streamId() == id) {
                    data.writeBytes(ByteBufUtil.getBytes(d.content()));
                }
                d.release();
            }
        }
        return data.toString(StandardCharsets.UTF_8);
    }

    private static Map<Integer, String> texts(Map<Integer, ByteArrayOutputStream> data) {
        Map<Integer, String> texts = new HashMap<>();
        data.forEach((k, v) -> texts.put(k, v.toString(StandardCharsets.UTF_8)));
        return texts;
    }

    @Override
    public void close() throws IOException {
        socket.close();
        codec.finishAndReleaseAll();
    }
}
