package io.jkubelet.server.streaming;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.StreamingIo;
import io.jkubelet.core.runtime.TerminalSizeQueue;
import io.jkubelet.server.http.Handler;
import io.jkubelet.server.http.Request;
import io.jkubelet.server.http.Response;
import io.jkubelet.server.http.Router;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshakerFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's streaming endpoints, as upstream's {@code getExec}, {@code getAttach} and {@code
 * getPortForward} answer them, served over WebSocket with Kubernetes' channel framing:
 *
 * <ul>
 *   <li>{@code GET|POST /exec/{podNamespace}/{podID}[/{uid}]/{containerName}?command=...&stdin=1&stdout=1&stderr=1&tty=1}
 *   <li>{@code GET|POST /attach/{podNamespace}/{podID}[/{uid}]/{containerName}?stdin=1&stdout=1&...}
 *   <li>{@code GET|POST /portForward/{podNamespace}/{podID}[/{uid}]?port=80&port=8080}
 * </ul>
 *
 * Checks come in upstream's order, each with its answer: stream options (400), the pod in the pod manager
 * (404 {@code pod does not exist}; for port-forward a different UID is 404 {@code pod not found}), the
 * container or sandbox on the runtime (500 {@code container not found ("name")}), then the upgrade: a
 * request that is not a WebSocket upgrade gets 500 {@code Upgrade request required}, subprotocols of which
 * none is supported 403, and a session over the {@linkplain StreamingSessions cap} 429.
 */
public final class StreamingHandlers {

    private static final Logger log = LoggerFactory.getLogger(StreamingHandlers.class);

    /** Go's {@code connectionUpgradeRegex}, applied to the lower-cased {@code Connection} header. */
    private static final Pattern CONNECTION_UPGRADE = Pattern.compile("(^|.*,\\s*)upgrade($|\\s*,)");

    /** Upstream's streaming request cache TTL, which it sends as {@code Retry-After} with a 429. */
    private static final String RETRY_AFTER_SECONDS = "60";

    static final int STDIN = 0;
    static final int STDOUT = 1;
    static final int STDERR = 2;
    static final int ERROR = 3;
    static final int RESIZE = 4;

    private final Supplier<List<Pod>> pods;
    private final ContainerStreaming runtime;
    private final StreamingSessions sessions;

    /**
     * @param pods the pod manager's pods (upstream {@code GetPodByName} looks there)
     * @param runtime the runtime's containers and streaming calls
     */
    public StreamingHandlers(Supplier<List<Pod>> pods, ContainerStreaming runtime, StreamingSessions sessions) {
        this.pods = pods;
        this.runtime = runtime;
        this.sessions = sessions;
    }

    /** Registers GET and POST for each of upstream's exec, attach and portForward routes. */
    public void install(Router.Builder router) {
        for (String method : List.of("GET", "POST")) {
            router.route(method, "/exec/{podNamespace}/{podID}/{containerName}", Handler.blocking(this::exec));
            router.route(method, "/exec/{podNamespace}/{podID}/{uid}/{containerName}", Handler.blocking(this::exec));
            router.route(method, "/attach/{podNamespace}/{podID}/{containerName}", Handler.blocking(this::attach));
            router.route(method, "/attach/{podNamespace}/{podID}/{uid}/{containerName}", Handler.blocking(this::attach));
            router.route(method, "/portForward/{podNamespace}/{podID}", Handler.blocking(this::portForward));
            router.route(method, "/portForward/{podNamespace}/{podID}/{uid}", Handler.blocking(this::portForward));
        }
    }

    Response exec(Request request) {
        return remoteCommand(request, true);
    }

    Response attach(Request request) {
        return remoteCommand(request, false);
    }

    private Response remoteCommand(Request request, boolean exec) {
        RemoteCommandOptions options;
        try {
            options = RemoteCommandOptions.parse(request);
        } catch (IllegalArgumentException e) {
            return Response.restfulError(400, e.getMessage());
        }
        String namespace = request.pathParam("podNamespace");
        String podName = request.pathParam("podID");
        String containerName = request.pathParam("containerName");
        if (findPod(namespace, podName).isEmpty()) {
            return Response.restfulError(404, "pod does not exist");
        }
        Optional<String> containerId = runtime.findRunningContainer(namespace, podName, containerName);
        if (containerId.isEmpty()) {
            return Response.restfulError(500, "container not found (\"" + containerName + "\")");
        }
        List<String> command = request.queryParams("command");
        if (exec && command.isEmpty()) {
            return Response.restfulError(400, "no command given: add one command= query parameter per argument");
        }
        String name = (exec ? "exec " : "attach ") + namespace + "/" + podName + "/" + containerName;
        boolean[] readable = new boolean[RESIZE + 1];
        readable[STDIN] = options.stdin();
        readable[RESIZE] = options.tty();
        SpdyPlan spdy = new SpdyPlan(SPDY_REMOTE_COMMAND, type -> type.equals("stdin") || type.equals("resize"),
                version -> spdyRemoteCommand(version, options, exec, containerId.get(), command));
        return upgrade(request, ChannelProtocol.REMOTE_COMMAND, readable, name, spdy, channels -> {
            ChannelOutput stdout = options.stdout() ? channels.output(STDOUT) : null;
            ChannelOutput stderr = options.stderr() ? channels.output(STDERR) : null;
            ChannelOutput error = channels.output(ERROR);
            // An empty message on the lowest writable channel tells the client the session is up.
            (stdout != null ? stdout : stderr != null ? stderr : error).send(new byte[0], 0, 0);
            StreamingIo io = new StreamingIo(options.stdin() ? channels.input(STDIN) : null, stdout, stderr, options.tty(),
                    options.tty() ? new ResizeEvents(channels.input(RESIZE)) : TerminalSizeQueue.NONE);
            RemoteCommandStatus status;
            if (exec) {
                status = runExec(containerId.get(), command, io);
            } else {
                status = runAttach(containerId.get(), io);
            }
            byte[] report = channels.protocol().statusJson ? status.toJson() : status.toV1();
            if (report.length > 0) {
                error.write(report);
            }
        });
    }

    private RemoteCommandStatus runExec(String containerId, List<String> command, StreamingIo io) throws InterruptedException {
        try {
            int exitCode = runtime.exec(containerId, command, io);
            return exitCode == 0 ? RemoteCommandStatus.success() : RemoteCommandStatus.nonZeroExit(command, exitCode);
        } catch (NotFoundException | IllegalArgumentException | IllegalStateException | java.io.UncheckedIOException e) {
            return RemoteCommandStatus.internalError("error executing command in container: " + e.getMessage());
        } catch (RuntimeException e) {
            log.warn("exec {} in container {} failed", command, containerId, e);
            return RemoteCommandStatus.internalError("error executing command in container: " + e.getMessage());
        }
    }

    private RemoteCommandStatus runAttach(String containerId, StreamingIo io) throws InterruptedException {
        try {
            runtime.attach(containerId, io);
            return RemoteCommandStatus.success();
        } catch (RuntimeException e) {
            log.debug("attach to container {} failed", containerId, e);
            return RemoteCommandStatus.internalError("error attaching to container: " + e.getMessage());
        }
    }

    Response portForward(Request request) {
        boolean webSocket = isWebSocketRequest(request);
        PortForwardOptions options = new PortForwardOptions(List.of());
        if (webSocket) {
            try {
                options = PortForwardOptions.parse(request);
            } catch (IllegalArgumentException e) {
                return Response.restfulError(400, e.getMessage());
            }
        }
        String namespace = request.pathParam("podNamespace");
        String podName = request.pathParam("podID");
        String uid = request.pathParam("uid");
        Optional<Pod> pod = findPod(namespace, podName);
        if (pod.isEmpty()) {
            return Response.restfulError(404, "pod does not exist");
        }
        String podUid = pod.get().getMetadata().getUid();
        if (uid != null && !uid.isEmpty() && !uid.equals(podUid)) {
            return Response.restfulError(404, "pod not found");
        }
        Optional<String> sandbox = podUid == null ? Optional.empty() : runtime.findSandbox(podUid);
        if (sandbox.isEmpty()) {
            return Response.restfulError(500, "pod not found (\"" + podName + "_" + namespace + "\")");
        }
        List<Integer> ports = options.ports();
        boolean[] readable = new boolean[ports.size() * 2];
        for (int i = 0; i < ports.size(); i++) {
            readable[2 * i] = true;
        }
        String name = "portForward " + namespace + "/" + podName + " " + ports;
        SpdyPlan spdy = new SpdyPlan(List.of(SPDY_PORT_FORWARD), type -> type.equals("data"),
                version -> streams -> forwardSpdyPorts(streams, sandbox.get()));
        return upgrade(request, ChannelProtocol.PORT_FORWARD, readable, name, spdy,
                channels -> forwardPorts(channels, sandbox.get(), ports));
    }

    /** One data and one error channel per port, each opened with the port (2 bytes, little-endian). */
    private void forwardPorts(WebSocketChannels channels, String sandboxId, List<Integer> ports)
            throws IOException, InterruptedException {
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
                    runtime.portForward(sandboxId, port, in, data);
                } catch (InterruptedException e) {
                    // The client went away.
                } catch (IOException | RuntimeException e) {
                    String message = "error forwarding port " + port + " to pod " + sandboxId + ", uid : " + e.getMessage();
                    log.debug(message);
                    try {
                        error.write(message.getBytes(StandardCharsets.UTF_8));
                    } catch (IOException gone) {
                        log.debug("cannot report a port-forward error to a client that has gone: {}", gone.toString());
                    }
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

    /** The stream protocols served over SPDY for exec and attach, in upstream's order of preference. */
    static final List<String> SPDY_REMOTE_COMMAND =
            List.of("v5.channel.k8s.io", "v4.channel.k8s.io", "v3.channel.k8s.io", "v2.channel.k8s.io");
    static final String SPDY_PORT_FORWARD = "portforward.k8s.io";

    /** How long a SPDY client may take to open the streams its options call for (upstream's streamCreationTimeout). */
    static final java.time.Duration STREAM_CREATION_TIMEOUT = java.time.Duration.ofSeconds(30);

    /** What an SPDY session serves: its protocol versions, the stream types it reads, its body per version. */
    private record SpdyPlan(List<String> protocols, java.util.function.Predicate<String> readable,
                            java.util.function.Function<String, SpdySession.Body> body) {}

    /** Go's {@code httpstream.IsUpgradeRequest}: a Connection header naming upgrade. */
    private static boolean isUpgradeRequest(Request request) {
        for (String value : request.headers().getOrDefault("connection", List.of())) {
            if (value.toLowerCase(Locale.ROOT).contains("upgrade")) {
                return true;
            }
        }
        return false;
    }

    /** {@code httpstream.Handshake} and the SPDY response upgrader, with their answers. */
    private Response spdyUpgrade(Request request, String name, SpdyPlan spdy) {
        List<String> offered = request.headers().getOrDefault("x-stream-protocol-version", List.of()).stream()
                .map(String::strip).toList();
        if (offered.isEmpty()) {
            return Response.goError(400, "unable to upgrade: X-Stream-Protocol-Version is required");
        }
        String chosen = offered.stream().filter(spdy.protocols()::contains).findFirst().orElse(null);
        if (chosen == null) {
            Response refused = Response.goError(403, "unable to upgrade: unable to negotiate protocol: client supports ["
                    + String.join(" ", offered) + "], server accepts [" + String.join(" ", spdy.protocols()) + "]");
            for (String p : spdy.protocols()) {
                refused = refused.withHeader("X-Accepted-Stream-Protocol-Versions", p);
            }
            return refused;
        }
        String upgrade = request.header("Upgrade");
        if (upgrade == null || !upgrade.equalsIgnoreCase("SPDY/3.1")) {
            return Response.goError(400, "unable to upgrade: missing upgrade headers in request: " + request.headers());
        }
        if (!sessions.tryOpen()) {
            if (sessions.warnAboutRefusal()) {
                log.warn("{}: refused (429), {} streaming sessions are open already, the most allowed", name,
                        sessions.maxSessions());
            } else {
                log.debug("{}: refused (429), {} streaming sessions are open already", name, sessions.maxSessions());
            }
            return Response.restfulError(429, "maximum number of in-flight requests exceeded")
                    .withHeader("Retry-After", RETRY_AFTER_SECONDS);
        }
        return Response.upgrade(new SpdySession(name, chosen, spdy.readable(), sessions, spdy.body().apply(chosen)));
    }

    /**
     * Exec or attach over SPDY: waits for the streams the options call for (error always; stdin, stdout,
     * stderr as asked; resize with a TTY from v3), runs the command and reports on the error stream.
     */
    private SpdySession.Body spdyRemoteCommand(String version, RemoteCommandOptions options, boolean exec, String containerId,
            List<String> command) {
        return streams -> {
            java.util.Set<String> expected = new java.util.HashSet<>(List.of("error"));
            if (options.stdin()) {
                expected.add("stdin");
            }
            if (options.stdout()) {
                expected.add("stdout");
            }
            if (options.stderr()) {
                expected.add("stderr");
            }
            if (options.tty() && !version.equals("v2.channel.k8s.io")) {
                expected.add("resize");
            }
            Map<String, SpdyStreams.Stream> got = new java.util.HashMap<>();
            long deadline = System.nanoTime() + STREAM_CREATION_TIMEOUT.toNanos();
            while (!got.keySet().containsAll(expected)) {
                SpdyStreams.Stream stream = streams.arrivals.poll(Math.max(0, deadline - System.nanoTime()),
                        java.util.concurrent.TimeUnit.NANOSECONDS);
                if (stream == null) {
                    log.debug("timed out waiting for client to create streams {} (has {})", expected, got.keySet());
                    return;
                }
                got.put(stream.type(), stream);
            }
            java.io.OutputStream stdout = options.stdout() ? streams.output(got.get("stdout").id()) : null;
            java.io.OutputStream stderr = options.stderr() ? streams.output(got.get("stderr").id()) : null;
            java.io.OutputStream error = streams.output(got.get("error").id());
            StreamingIo io = new StreamingIo(options.stdin() ? got.get("stdin").input() : null, stdout, stderr, options.tty(),
                    expected.contains("resize") ? new ResizeEvents(got.get("resize").input()) : TerminalSizeQueue.NONE);
            RemoteCommandStatus status = exec ? runExec(containerId, command, io) : runAttach(containerId, io);
            boolean json = version.equals("v4.channel.k8s.io") || version.equals("v5.channel.k8s.io");
            byte[] report = json ? status.toJson() : status.toV1();
            if (report.length > 0) {
                error.write(report);
            }
            for (java.io.OutputStream out : new java.io.OutputStream[] {stdout, stderr, error}) {
                if (out != null) {
                    out.close();
                }
            }
        };
    }

    /**
     * Port-forward over SPDY: the client opens a data and an error stream per connection it forwards,
     * paired by {@code requestID}, each naming its {@code port}; the session lasts until the client leaves.
     */
    private void forwardSpdyPorts(SpdyStreams streams, String sandboxId) throws InterruptedException {
        Map<String, SpdyStreams.Stream> data = new java.util.HashMap<>();
        Map<String, SpdyStreams.Stream> errors = new java.util.HashMap<>();
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
                            .start(() -> forwardSpdyPort(streams, sandboxId, d, e)));
                }
            }
        } finally {
            forwards.forEach(Thread::interrupt);
        }
    }

    private void forwardSpdyPort(SpdyStreams streams, String sandboxId, SpdyStreams.Stream data, SpdyStreams.Stream error) {
        java.io.OutputStream out = streams.output(data.id());
        java.io.OutputStream err = streams.output(error.id());
        try {
            int port;
            try {
                port = Integer.parseInt(data.port());
                if (port < 1 || port > 65535) {
                    throw new NumberFormatException("out of range");
                }
            } catch (NumberFormatException bad) {
                err.write(("invalid port in stream header: \"" + data.port() + "\"").getBytes(StandardCharsets.UTF_8));
                return;
            }
            try {
                runtime.portForward(sandboxId, port, data.input(), out);
            } catch (IOException | RuntimeException e) {
                err.write(("error forwarding port " + port + " to pod " + sandboxId + ", uid : " + e.getMessage())
                        .getBytes(StandardCharsets.UTF_8));
            }
        } catch (InterruptedException | IOException e) {
            log.debug("port-forward over SPDY ended: {}", e.toString());
        } finally {
            try {
                out.close();
                err.close();
            } catch (IOException gone) {
                log.trace("client gone: {}", gone.toString());
            }
        }
    }

    private Optional<Pod> findPod(String namespace, String name) {
        List<Pod> all = pods.get();
        if (all == null) {
            return Optional.empty();
        }
        return all.stream().filter(p -> p.getMetadata() != null && namespace.equals(p.getMetadata().getNamespace())
                && name.equals(p.getMetadata().getName())).findFirst();
    }

    /** Go's {@code wsstream.IsWebSocketRequest}. */
    static boolean isWebSocketRequest(Request request) {
        String upgrade = request.header("Upgrade");
        String connection = request.header("Connection");
        return upgrade != null && upgrade.equalsIgnoreCase("websocket") && connection != null
                && CONNECTION_UPGRADE.matcher(connection.toLowerCase(Locale.ROOT)).matches();
    }

    /**
     * The answer that hands the connection to a WebSocket session, or the error upstream gives when it
     * cannot be upgraded.
     */
    private Response upgrade(Request request, java.util.Set<ChannelProtocol> supported, boolean[] readable, String name,
            SpdyPlan spdy, WebSocketSession.Body body) {
        if (!isWebSocketRequest(request)) {
            if (isUpgradeRequest(request)) {
                return spdyUpgrade(request, name, spdy);
            }
            // The kubelet's upgrade-aware proxy: errors.NewBadRequest answered as an internal error.
            return Response.goError(500, "Upgrade request required");
        }
        if (!request.method().equals("GET")) {
            return Response.of(405, null, new byte[0]);
        }
        ChannelProtocol protocol = ChannelProtocol.negotiate(
                ChannelProtocol.offered(request.headers().getOrDefault("sec-websocket-protocol", List.of())), supported);
        if (protocol == null) {
            // golang.org/x/net/websocket refuses a handshake whose protocols it does not support with a bare 403.
            return Response.of(403, null, new byte[0]);
        }
        FullHttpRequest handshakeRequest = toNetty(request);
        WebSocketServerHandshaker handshaker = new WebSocketServerHandshakerFactory(
                "ws://" + request.header("Host") + request.path(),
                protocol == ChannelProtocol.NONE ? null : protocol.wireName, false, WebSocketSession.MAX_MESSAGE_BYTES)
                .newHandshaker(handshakeRequest);
        if (handshaker == null || request.header("Sec-WebSocket-Key") == null) {
            handshakeRequest.release();
            return handshaker == null
                    ? Response.of(426, null, new byte[0]).withHeader("Sec-WebSocket-Version", "13")
                    : Response.of(400, null, new byte[0]);
        }
        if (!sessions.tryOpen()) {
            handshakeRequest.release();
            if (sessions.warnAboutRefusal()) {
                log.warn("{}: refused (429), {} streaming sessions are open already, the most allowed", name,
                        sessions.maxSessions());
            } else {
                log.debug("{}: refused (429), {} streaming sessions are open already", name, sessions.maxSessions());
            }
            return Response.restfulError(429, "maximum number of in-flight requests exceeded")
                    .withHeader("Retry-After", RETRY_AFTER_SECONDS);
        }
        return Response.upgrade(new WebSocketSession(name, handshaker, handshakeRequest, protocol, readable, sessions, body));
    }

    private static FullHttpRequest toNetty(Request request) {
        String uri = request.rawQuery().isEmpty() ? request.path() : request.path() + "?" + request.rawQuery();
        DefaultFullHttpRequest netty = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(request.method()), uri);
        for (Map.Entry<String, List<String>> header : request.headers().entrySet()) {
            netty.headers().add(header.getKey(), header.getValue());
        }
        return netty;
    }
}
