package io.jkubelet.core.probe;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;

/**
 * Opens the TCP connections of probes (upstream {@code probe.ProbeDialer}): direct (never through a proxy),
 * with {@code SO_LINGER} of 1 s so that a probe that runs every few seconds does not fill the node with
 * sockets in TIME_WAIT, and with errors worded as Go's dialer words them
 * ({@code dial tcp 10.0.0.5:8080: connect: connection refused}), since users match on those texts.
 * Stateless and thread-safe.
 */
final class ProbeDialer {
    private ProbeDialer() {}

    /** Connects within {@code timeout}; the caller owns (and closes) the socket. */
    static Socket dial(String host, int port, Duration timeout) throws IOException {
        String addr = GoFormat.joinHostPort(host, port);
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IOException("dial tcp: lookup " + host + ": no such host", e);
        }
        Socket socket = new Socket(Proxy.NO_PROXY);
        try {
            socket.setSoLinger(true, 1);
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(address, port), timeoutMillis(timeout));
            return socket;
        } catch (SocketTimeoutException e) {
            closeQuietly(socket);
            throw new SocketTimeoutException("dial tcp " + addr + ": i/o timeout");
        } catch (NoRouteToHostException e) {
            closeQuietly(socket);
            throw new IOException("dial tcp " + addr + ": connect: no route to host", e);
        } catch (ConnectException e) {
            closeQuietly(socket);
            String reason = e.getMessage() == null ? "connection refused" : e.getMessage().toLowerCase(Locale.ROOT);
            throw new IOException("dial tcp " + addr + ": connect: " + reason, e);
        } catch (IOException | RuntimeException e) {
            closeQuietly(socket);
            throw new IOException("dial tcp " + addr + ": " + e.getMessage(), e);
        }
    }

    /** A positive millisecond timeout for socket calls (0 would mean "forever" to the JDK). */
    static int timeoutMillis(Duration timeout) {
        long millis = Math.max(1, timeout.toMillis());
        return (int) Math.min(Integer.MAX_VALUE, millis);
    }

    static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing to do: the probe's outcome is already decided
        }
    }
}
