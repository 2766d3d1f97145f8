package io.jkubelet.core.runtime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SocketChannel;

/**
 * Port-forward by connecting to the pod's IP ({@code 127.0.0.1} for a pod on the node's network), for the adapters'
 * {@link RuntimeService#portForward}. Upstream enters the sandbox's network namespace instead (dockershim with
 * {@code nsenter}/{@code socat}, containerd in its streaming server); connecting to the pod IP needs neither, but
 * cannot reach a server bound only to {@code 127.0.0.1} inside the pod.
 */
public final class PodIpPortForward {
    private static final Logger log = LoggerFactory.getLogger(PodIpPortForward.class);

    private PodIpPortForward() {}

    /**
     * Copies bytes both ways between the client and {@code port} of the sandbox until either side closes or the
     * calling thread is interrupted.
     *
     * @throws IOException when the sandbox has no IP or the port cannot be reached; the message names it
     * @throws InterruptedException when the client went away
     */
    public static void forward(PodSandboxStatus status, int port, InputStream in, OutputStream out)
            throws IOException, InterruptedException {
        boolean hostNetwork = status.namespaceOptions() != null && status.namespaceOptions().network() == NamespaceMode.NODE;
        String host = hostNetwork ? "127.0.0.1" : status.ip();
        if (host == null || host.isEmpty()) {
            throw new IOException("pod sandbox " + status.id() + " has no IP address (is it running?)");
        }
        SocketChannel socket;
        try {
            socket = SocketChannel.open(new InetSocketAddress(host, port));
        } catch (IOException e) {
            throw new IOException("connect to " + host + ":" + port + ": " + e.getMessage(), e);
        }
        try (socket) {
            OutputStream toPod = SocketStreams.output(socket);
            Thread upstream = Thread.ofVirtual().name("port-forward-in-" + port).start(() -> {
                try {
                    in.transferTo(toPod);
                    socket.shutdownOutput();
                } catch (IOException e) {
                    log.debug("port-forward to {}:{}: client to pod ended: {}", host, port, e.toString());
                }
            });
            try {
                SocketStreams.input(socket).transferTo(out);
            } catch (ClosedByInterruptException e) {
                InterruptedException interrupted = new InterruptedException("streaming session ended by its client");
                interrupted.initCause(e);
                throw interrupted;
            } finally {
                upstream.interrupt();
            }
        }
    }
}
