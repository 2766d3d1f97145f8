package io.jkubelet.docker.engine;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * HTTP/1.1 to one daemon over kept-alive connections. At most {@link #maxIdle} idle connections are kept (more
 * calls at once open more, which are closed when they end); an idle connection the daemon has closed is dropped
 * before use. Thread-safe.
 */
final class EngineHttp implements AutoCloseable {
    private final EngineEndpoint endpoint;
    private final int maxIdle;
    private final Deque<EngineConnection> idle = new ArrayDeque<>();
    private boolean closed;

    EngineHttp(EngineEndpoint endpoint, int maxIdle) {
        this.endpoint = endpoint;
        this.maxIdle = maxIdle;
    }

    EngineEndpoint endpoint() {
        return endpoint;
    }

    /**
     * Sends the request and reads the answer's head; the body is left to the caller.
     *
     * @param what the call and its object, which every error names
     * @throws EngineCallException.Unreachable when the daemon cannot be reached or the connection breaks
     * @throws EngineCallException.Timeout when the daemon does not answer within the request's timeout
     */
    EngineResponse send(EngineRequest request, String what) {
        EngineConnection connection = null;
        try {
            connection = take();
            boolean reused = connection != null;
            if (!reused) {
                connection = connect(what);
            }
            try {
                return exchange(connection, request);
            } catch (ResponseHead.NoAnswerException stale) {
                if (!reused) {
                    throw stale;
                }
                // Closed by the daemon while idle, or while this request was on its way (reset before any answer):
                // it handled none of it, so once more on a new connection, as Go's transport retries on a reused one.
                connection.close();
                connection = connect(what);
                return exchange(connection, request);
            }
        } catch (SocketTimeoutException e) {
            close(connection);
            throw new EngineCallException.Timeout(what, "Docker did not answer " + request.call() + " within "
                    + Durations.text(request.timeout()) + " (runtimeRequestTimeout)", e);
        } catch (InterruptedIOException | AsynchronousCloseException e) {
            close(connection);
            throw new EngineCallException.Unreachable(what, "the call to " + endpoint + " was interrupted", e);
        } catch (IOException e) {
            close(connection);
            throw new EngineCallException.Unreachable(what, "the connection to the Docker daemon at " + endpoint
                    + " failed: " + reason(e), e);
        }
    }

    /** {@code GET /_ping} (no version prefix: it settles the version): the daemon's {@code Api-Version}. */
    String ping(Duration timeout) {
        try (EngineResponse response = send(new EngineRequest("GET", "/_ping", Map.of(), null, timeout), "ping")
                .requireSuccess("ping")) {
            response.text(1024);
            return response.header("Api-Version");
        } catch (IOException e) {
            throw new EngineCallException.Unreachable("ping", "reading the answer of " + endpoint + " failed: "
                    + reason(e), e);
        }
    }

    /**
     * Sends the request on a connection of its own and waits for {@code 101 UPGRADED}, after which the connection
     * carries a process's stdin and output ({@code docker exec -i}, {@code docker attach}).
     */
    HijackedStream upgrade(EngineRequest request, String what) {
        SocketChannel channel;
        try {
            channel = endpoint.connect();
        } catch (IOException e) {
            throw unreachable(what, e);
        }
        return HijackedStream.open(channel, head(request, "Connection: Upgrade\r\nUpgrade: tcp\r\n"), request.body(),
                what, endpoint);
    }

    private EngineConnection connect(String what) {
        try {
            return EngineConnection.open(endpoint);
        } catch (IOException e) {
            throw unreachable(what, e);
        }
    }

    private EngineCallException.Unreachable unreachable(String what, IOException e) {
        return new EngineCallException.Unreachable(what, "cannot connect to the Docker daemon at " + endpoint + ": "
                + reason(e) + "; is dockerd running?", e);
    }

    private EngineResponse exchange(EngineConnection connection, EngineRequest request) throws IOException {
        connection.timeout(request.timeout());
        OutputStream out = connection.out();
        try {
            out.write(head(request, "").getBytes(StandardCharsets.ISO_8859_1));
            if (request.body() != null) {
                out.write(request.body());
            }
            out.flush();
        } catch (IOException e) {
            // The daemon had closed it: it read none of this request.
            throw ResponseHead.NoAnswerException.unlessOurs(e);
        }
        ResponseHead head = ResponseHead.read(connection.in());
        ResponseBody body = ResponseBody.of(head, request.method(), connection.in(),
                reusable -> release(connection, reusable));
        return new EngineResponse(head, body);
    }

    static String head(EngineRequest request, String extra) {
        StringBuilder head = new StringBuilder(256)
                .append(request.method()).append(' ').append(request.path()).append(" HTTP/1.1\r\n")
                .append("Host: docker\r\nUser-Agent: jkubelet\r\n");
        for (Map.Entry<String, String> h : request.headers().entrySet()) {
            head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        if (request.body() != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ").append(request.body().length)
                    .append("\r\n");
        }
        return head.append(extra).append("\r\n").toString();
    }

    private synchronized EngineConnection take() {
        EngineConnection c;
        while ((c = idle.pollFirst()) != null) {
            if (!c.stale()) {
                return c;
            }
            c.close();
        }
        return null;
    }

    private void release(EngineConnection connection, boolean reusable) {
        synchronized (this) {
            if (reusable && !closed && idle.size() < maxIdle) {
                connection.timeout(null);
                idle.addFirst(connection);
                return;
            }
        }
        connection.close();
    }

    private static void close(EngineConnection connection) {
        if (connection != null) {
            connection.close();
        }
    }

    /** How many idle connections are kept now (for tests of the pool). */
    synchronized int idleConnections() {
        return idle.size();
    }

    private static String reason(IOException e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    @Override
    public synchronized void close() {
        closed = true;
        idle.forEach(EngineConnection::close);
        idle.clear();
    }
}
