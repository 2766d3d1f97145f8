package io.jkubelet.server.streaming;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One port-forward (upstream's portforward {@code ServePortForward}) once its connection speaks WebSocket
 * or SPDY: each forwarded connection copies bytes between the client and the port in the pod's sandbox,
 * and a failure is reported as upstream words it, on that connection's error stream.
 */
final class PortForwardSession {

    private static final Logger log = LoggerFactory.getLogger(PortForwardSession.class);

    /** The stream protocol served over SPDY. */
    static final String SPDY_PROTOCOL = "portforward.k8s.io";

    private final ContainerStreaming runtime;
    private final String sandboxId;

    PortForwardSession(ContainerStreaming runtime, String sandboxId) {
        this.runtime = runtime;
        this.sandboxId = sandboxId;
    }

    /** Over WebSocket the client reads and writes the data channels (even numbers); error channels are write-only. */
    static boolean[] readableChannels(List<Integer> ports) {
        boolean[] readable = new boolean[ports.size() * 2];
        for (int i = 0; i < ports.size(); i++) {
            readable[2 * i] = true;
        }
        return readable;
    }

    /** One data and one error channel per port, each opened with the port (2 bytes, little-endian). */
    void overWebSocket(WebSocketChannels channels, List<Integer> ports) throws IOException, InterruptedException {
        List<Thread> forwards = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            int port = ports.get(i);
            ChannelOutput data = channels.output(2 * i);
            ChannelOutput error = channels.output(2 * i + 1);
            byte[] prefix = {(byte) (port & 0xFF), (byte) (port >> 8)};
            data.send(prefix, 0, 2);
            error.send(prefix, 0, 2);
            ChannelInput in = channels.input(2 * i);
            forwards.add(Thread.ofVirtual().name("port-forward " + sandboxId + ":" + port).start(() -> {
                try {
                    forward(port, in, data, error);
                } catch (InterruptedException e) {
                    // The client went away.
                }
            }));
        }
        try {
            for (Thread forward : forwards) {
                forward.join();
            }
        } finally {
            forwards.forEach(Thread::interrupt);
        }
    }

    /**
     * Over SPDY the client opens a data and an error stream per connection it forwards, paired by {@code
     * requestID}, each naming its {@code port}; the session lasts until the client leaves.
     */
    void overSpdy(SpdyStreams streams) throws InterruptedException {
        Map<String, SpdyStreams.Stream> data = new HashMap<>();
        Map<String, SpdyStreams.Stream> errors = new HashMap<>();
        List<Thread> forwards = new ArrayList<>();
        try {
            while (true) {
                SpdyStreams.Stream stream = streams.arrivals.take();
                (stream.type().equals("error") ? errors : data).put(stream.requestId(), stream);
                SpdyStreams.Stream d = data.get(stream.requestId());
                SpdyStreams.Stream e = errors.get(stream.requestId());
                if (d != null && e != null) {
                    data.remove(stream.requestId());
                    errors.remove(stream.requestId());
                    forwards.add(Thread.ofVirtual().name("port-forward " + sandboxId + ":" + d.port())
                            .start(() -> overSpdyStreams(streams, d, e)));
                }
            }
        } finally {
            forwards.forEach(Thread::interrupt);
        }
    }

    private void overSpdyStreams(SpdyStreams streams, SpdyStreams.Stream data, SpdyStreams.Stream error) {
        OutputStream out = streams.output(data.id());
        OutputStream err = streams.output(error.id());
        try {
            int port;
            try {
                port = Integer.parseInt(data.port());
                if (port < 1 || port > 65535) {
                    throw new NumberFormatException("out of range");
                }
            } catch (NumberFormatException bad) {
                report(err, "invalid port in stream header: \"" + data.port() + "\"");
                return;
            }
            forward(port, data.input(), out, err);
        } catch (InterruptedException e) {
            log.debug("port-forward over SPDY ended: the client went away");
        } finally {
            try {
                out.close();
                err.close();
            } catch (IOException gone) {
                log.trace("client gone: {}", gone.toString());
            }
        }
    }

    private void forward(int port, InputStream in, OutputStream data, OutputStream error) throws InterruptedException {
        try {
            runtime.portForward(sandboxId, port, in, data);
        } catch (IOException | RuntimeException e) {
            report(error, "error forwarding port " + port + " to pod " + sandboxId + ", uid : " + e.getMessage());
        }
    }

    private static void report(OutputStream error, String message) {
        log.debug(message);
        try {
            error.write(message.getBytes(StandardCharsets.UTF_8));
        } catch (IOException gone) {
            log.debug("cannot report a port-forward error to a client that has gone: {}", gone.toString());
        }
    }
}
