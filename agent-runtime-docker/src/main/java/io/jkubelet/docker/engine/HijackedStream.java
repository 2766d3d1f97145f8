package io.jkubelet.docker.engine;

import io.jkubelet.core.runtime.SocketStreams;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * One "hijacked" Docker API connection, as {@code docker exec -i} and {@code docker attach} use: an HTTP
 * request answered with {@code 101 UPGRADED}, after which the socket carries the process's stdin one way
 * and its output the other (raw with a TTY, else in {@link LogFrames}).
 *
 * <p>The connection is blocking and of its own, out of the pool: one thread reads the output while another writes
 * stdin, and the end of the client's stdin must reach the process (so that {@code cat} ends), which takes a
 * half-close of the socket ({@link #closeStdin()}).
 *
 * <p>A thread blocked reading or writing is released by interrupting it (the channel is interruptible)
 * or by {@link #close()}.
 */
public final class HijackedStream implements AutoCloseable {
    private final SocketChannel socket;
    private final InputStream in;
    private final OutputStream out;

    private HijackedStream(SocketChannel socket) {
        this.socket = socket;
        this.in = SocketStreams.input(socket);
        this.out = SocketStreams.output(socket);
    }

    /**
     * Sends the request's {@code head} and {@code body} on {@code socket} and waits for the upgrade; the socket is
     * closed when it does not come.
     *
     * @param what the call and its object, for error messages
     * @throws EngineCallException for any other answer than the upgrade, or a broken connection
     */
    static HijackedStream open(SocketChannel socket, String head, byte[] body, String what, EngineEndpoint endpoint) {
        boolean ok = false;
        try {
            HijackedStream stream = new HijackedStream(socket);
            stream.out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                stream.out.write(body);
            }
            stream.out.flush();
            // Byte by byte: the process's output follows the head at once, and none of it may be taken here.
            ResponseHead answer = ResponseHead.read(stream.in);
            if (answer.status() != 101 && answer.status() != 200) {
                ResponseBody error = ResponseBody.of(answer, "POST", stream.in, reusable -> { });
                new EngineResponse(answer, error).requireSuccess(what);
            }
            ok = true;
            return stream;
        } catch (IOException e) {
            throw new EngineCallException.Unreachable(what, "the connection to the Docker daemon at " + endpoint
                    + " failed: " + e.getMessage(), e);
        } finally {
            if (!ok) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // Already failing; the error says why.
                }
            }
        }
    }

    /** The process's output: raw with a TTY, else Docker's multiplexed frames. */
    public InputStream output() {
        return in;
    }

    /** The process's stdin. */
    public OutputStream input() {
        return out;
    }

    /** Ends the process's stdin (a half-close), leaving its output open. */
    public void closeStdin() throws IOException {
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
