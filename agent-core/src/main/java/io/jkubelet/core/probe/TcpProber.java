package io.jkubelet.core.probe;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;

/**
 * The {@code tcpSocket} handler (upstream {@code pkg/probe/tcp}): success when a TCP connection to
 * {@code host:port} opens within the timeout, then closes it at once. Every dial error is a
 * {@link ProbeResult#FAILURE} with the dialer's message, as upstream "converts errors to failures to
 * handle timeouts". Stateless and thread-safe.
 */
public final class TcpProber {

    public ProbeOutcome probe(String host, int port, Duration timeout) {
        Socket socket;
        try {
            socket = ProbeDialer.dial(host, port, timeout);
        } catch (IOException e) {
            return ProbeOutcome.failure(e.getMessage());
        }
        // The connection opened: that is all a tcpSocket probe asks. A failing close changes nothing.
        ProbeDialer.closeQuietly(socket);
        return ProbeOutcome.success("");
    }
}
