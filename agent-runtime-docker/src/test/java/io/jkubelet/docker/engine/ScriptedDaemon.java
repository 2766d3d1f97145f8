package io.jkubelet.docker.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A daemon on a unix socket or TCP loopback that answers each request with scripted text, for the client's behaviour
 * where the real engine cannot be made to misbehave: closed idle connections, no answer, a stream that breaks.
 */
public final class ScriptedDaemon implements AutoCloseable {
    /** The ping answer of a daemon of API 1.41. */
    public static final String PING = "HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\nContent-Length: 2\r\n\r\nOK";

    private final ServerSocketChannel server;
    private final Path dir;
    private final String endpoint;
    private final Function<String, String> answers;
    private final boolean keepAlive;
    private final List<String> requestLines = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean closesOnTheNextRequest;

    private ScriptedDaemon(ServerSocketChannel server, Path dir, String endpoint, Function<String, String> answers,
                           boolean keepAlive) {
        this.server = server;
        this.dir = dir;
        this.endpoint = endpoint;
        this.answers = answers;
        this.keepAlive = keepAlive;
        Thread.ofVirtual().start(this::serve);
    }

    /**
     * A daemon on a unix socket in a new temporary directory.
     *
     * @param answers from a request's head to the whole answer to write (null: never answer)
     * @param keepAlive whether a connection is kept for another request after an answer
     */
    public static ScriptedDaemon unix(Function<String, String> answers, boolean keepAlive) throws IOException {
        Path dir = Files.createTempDirectory("jk-engine");
        Path socket = dir.resolve("docker.sock");
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        return new ScriptedDaemon(server, dir, "unix://" + socket, answers, keepAlive);
    }

    /** A daemon on TCP loopback. */
    public static ScriptedDaemon tcp(Function<String, String> answers, boolean keepAlive) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress("127.0.0.1", 0));
        int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
        return new ScriptedDaemon(server, null, "tcp://127.0.0.1:" + port, answers, keepAlive);
    }

    /**
     * A daemon without keep-alive closes a connection only once the client has sent its next request on it, unread:
     * the close a client cannot see coming, as a daemon's idle timeout that strikes while a request is on its way.
     * The kernel then resets the connection, and the client's read fails with "Connection reset".
     */
    public ScriptedDaemon closingOnTheNextRequest() {
        closesOnTheNextRequest = true;
        return this;
    }

    public String endpoint() {
        return endpoint;
    }

    /** The request lines received, in order. */
    public List<String> requestLines() {
        return requestLines;
    }

    /** How many connections were accepted. */
    public int accepted() {
        return accepted.get();
    }

    private void serve() {
        try {
            while (true) {
                SocketChannel c = server.accept();
                accepted.incrementAndGet();
                Thread.ofVirtual().start(() -> answer(c));
            }
        } catch (IOException closed) {
            // The test ended.
        }
    }

    private void answer(SocketChannel c) {
        try (c; InputStream in = Channels.newInputStream(c)) {
            while (true) {
                String head = head(in);
                if (head == null) {
                    return;
                }
                requestLines.add(head.substring(0, head.indexOf("\r\n")));
                String answer = answers.apply(head);
                if (answer == null) {
                    in.read(); // until the client gives up
                    return;
                }
                c.write(ByteBuffer.wrap(answer.getBytes(StandardCharsets.ISO_8859_1)));
                if (!keepAlive) {
                    if (closesOnTheNextRequest) {
                        in.read(); // the next request's first byte: the rest stays unread
                    }
                    return;
                }
            }
        } catch (IOException ended) {
            // The client closed the connection.
        }
    }

    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        server.close();
        if (dir != null) {
            Files.deleteIfExists(dir.resolve("docker.sock"));
            Files.deleteIfExists(dir);
        }
    }
}
