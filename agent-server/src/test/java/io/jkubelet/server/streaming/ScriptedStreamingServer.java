package io.jkubelet.server.streaming;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A runtime's streaming server for the proxy's tests, scripted by the test: each connection is handed over with the
 * request head it began with, and the test answers on its socket.
 */
final class ScriptedStreamingServer implements AutoCloseable {

    /** One connection from the proxy: the request's head as it came, and the socket to answer on. */
    record Connection(String head, Socket socket) {
        void write(String text) throws IOException {
            socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
        }

        /** Everything until the proxy shuts its output down (a FIN). */
        String readToEnd() throws IOException {
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private final ServerSocket listener = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
    private final LinkedBlockingQueue<Connection> accepted = new LinkedBlockingQueue<>();

    ScriptedStreamingServer() throws IOException {
        Thread.ofVirtual().start(this::acceptAll);
    }

    int port() {
        return listener.getLocalPort();
    }

    private void acceptAll() {
        try {
            while (true) {
                Socket socket = listener.accept();
                socket.setSoTimeout(20_000);
                accepted.add(new Connection(readHead(socket.getInputStream()), socket));
            }
        } catch (IOException e) {
            // closed
        }
    }

    /** The request line and headers, up to the empty line, read byte by byte so that nothing after them is taken. */
    static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    Connection next() throws InterruptedException {
        Connection c = accepted.poll(20, TimeUnit.SECONDS);
        if (c == null) {
            throw new AssertionError("the proxy did not connect to the streaming server");
        }
        return c;
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Connection c; (c = accepted.poll()) != null; ) {
            c.socket().close();
        }
    }
}
