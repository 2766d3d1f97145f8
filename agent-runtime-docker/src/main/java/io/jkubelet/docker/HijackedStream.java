package io.jkubelet.docker;

import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.SocketStreams;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * One "hijacked" Docker API connection, as {@code docker exec -i} and {@code docker attach} use: an HTTP
 * request answered with {@code 101 UPGRADED}, after which the socket carries the process's stdin one way
 * and its output the other.
 *
 * <p>Made by hand over a JDK {@link SocketChannel} rather than through docker-java because the end of the
 * client's stdin must reach the process (so that {@code cat} ends): that takes a half-close of the socket
 * ({@link #closeStdin()}), which docker-java's hijacked request (httpclient5 transport, 3.7.1) never
 * does. Short calls (exec create, inspect, resize) still go through docker-java.
 *
 * <p>A thread blocked reading or writing is released by interrupting it (the channel is interruptible)
 * or by {@link #close()}.
 */
final class HijackedStream implements AutoCloseable {

    /** The longest status line and headers Docker sends before the stream; more means a protocol error. */
    private static final int MAX_HEAD = 64 * 1024;

    private final SocketChannel socket;
    private final InputStream in;
    private final OutputStream out;

    private HijackedStream(SocketChannel socket) {
        this.socket = socket;
        this.in = SocketStreams.input(socket);
        this.out = SocketStreams.output(socket);
    }

    /**
     * Sends {@code POST path} with {@code jsonBody} to the daemon at {@code endpoint} and waits for the
     * upgrade.
     *
     * @param what the call and its object, for error messages
     * @throws NotFoundException when Docker answers 404
     * @throws DockerCallException for any other answer than the upgrade
     */
    static HijackedStream open(String endpoint, String path, String jsonBody, String what) throws IOException {
        SocketChannel socket = SocketChannel.open(address(endpoint));
        boolean ok = false;
        try {
            HijackedStream stream = new HijackedStream(socket);
            byte[] body = jsonBody.getBytes(StandardCharsets.UTF_8);
            String head = "POST " + path + " HTTP/1.1\r\n"
                    + "Host: docker\r\n"
                    + "User-Agent: jkubelet\r\n"
                    + "Content-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\n"
                    + "Connection: Upgrade\r\n"
                    + "Upgrade: tcp\r\n\r\n";
            stream.out.write(head.getBytes(StandardCharsets.US_ASCII));
            stream.out.write(body);
            stream.out.flush();
            stream.readUpgrade(what);
            ok = true;
            return stream;
        } finally {
            if (!ok) {
                socket.close();
            }
        }
    }

    static SocketAddress address(String endpoint) {
        URI uri = URI.create(endpoint);
        if ("unix".equals(uri.getScheme())) {
            return UnixDomainSocketAddress.of(uri.getPath());
        }
        if ("tcp".equals(uri.getScheme())) {
            return new InetSocketAddress(uri.getHost(), uri.getPort());
        }
        throw new IllegalArgumentException("Docker endpoint " + endpoint + ": streaming needs unix:// or tcp://");
    }

    /** Reads the status line and headers; anything but 101 or 200 is an error with Docker's message. */
    private void readUpgrade(String what) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new DockerCallException(what + ": Docker closed the connection before answering", 0, null);
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
            if (head.size() > MAX_HEAD) {
                throw new DockerCallException(what + ": Docker's answer has no end of headers", 0, null);
            }
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        String[] status = text.substring(0, text.indexOf("\r\n")).split(" ", 3);
        int code = status.length > 1 ? Integer.parseInt(status[1]) : 0;
        if (code == 101 || code == 200) {
            return;
        }
        // An error answer: its body (usually {"message": ...}) says why; read what is there.
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                length = Math.min(Integer.parseInt(line.substring(15).strip()), MAX_HEAD);
            }
        }
        byte[] rest = in.readNBytes(length);
        String message = rest.length == 0 ? text.substring(0, text.indexOf("\r\n"))
                : DockerErrors.messageOf(new String(rest, StandardCharsets.UTF_8));
        if (code == 404) {
            throw new NotFoundException(what + ": " + message);
        }
        throw new DockerCallException(what + ": " + message, code, null);
    }

    /** The process's output: raw with a TTY, else Docker's multiplexed frames. */
    InputStream output() {
        return in;
    }

    /** The process's stdin. */
    OutputStream input() {
        return out;
    }

    /** Ends the process's stdin (a half-close), leaving its output open. */
    void closeStdin() throws IOException {
        socket.shutdownOutput();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Closing a broken connection; the session has already ended.
        }
    }
}
