package io.jkubelet.server.streaming;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.StreamingRuntime;
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
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's streaming endpoints, as upstream's {@code getExec}, {@code getAttach} and {@code
 * getPortForward} answer them, served over WebSocket with Kubernetes' channel framing:
 *
 * <ul>
 *   <li>{@code GET|POST /exec/{podNamespace}/{podID}[/{uid}]/{containerName}?command=...&input=1&output=1&error=1&tty=1}
 *   <li>{@code GET|POST /attach/{podNamespace}/{podID}[/{uid}]/{containerName}?input=1&output=1&...}
 *   <li>{@code GET|POST /portForward/{podNamespace}/{podID}[/{uid}]?port=80&port=8080}
 * </ul>
 *
 * Checks come in upstream's order, each with its answer: stream options (400), the pod in the pod manager
 * (404 {@code pod does not exist}; for port-forward a different UID is 404 {@code pod not found}), the
 * container or sandbox on the runtime (500 {@code container not found ("name")}), then the upgrade: a
 * request that is not a WebSocket upgrade gets 500 {@code Upgrade request required}, subprotocols of which
 * none is supported 403, and a session over the {@linkplain StreamingSessions cap} 429.
 *
 * <p>On a runtime with a streaming server (a CRI runtime) the session is proxied there after the same checks, as
 * upstream's kubelet does by default ({@link StreamProxy}); on Docker the kubelet serves it itself.
 */
public final class StreamingHandlers {

    private static final Logger log = LoggerFactory.getLogger(StreamingHandlers.class);

    /** Go's {@code connectionUpgradeRegex}, applied to the lower-cased {@code Connection} header. */
    private static final Pattern CONNECTION_UPGRADE = Pattern.compile("(^|.*,\\s*)upgrade($|\\s*,)");

    /** Upstream's streaming request cache TTL, which it sends as {@code Retry-After} with a 429. */
    private static final String RETRY_AFTER_SECONDS = "60";

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
        Optional<StreamingRuntime> server = runtime.streamingRuntime();
        if (server.isPresent()) {
            return proxyStream(request, name, () -> exec
                    ? server.get().getExec(containerId.get(), command, options.stdin(), options.stdout(), options.stderr(), options.tty())
                    : server.get().getAttach(containerId.get(), options.stdin(), options.stdout(), options.stderr(), options.tty()));
        }
        RemoteCommandSession session = new RemoteCommandSession(runtime, containerId.get(), exec ? command : null, options);
        SpdyPlan spdy = new SpdyPlan(RemoteCommandSession.SPDY_PROTOCOLS, RemoteCommandSession::readsSpdyStream,
                session::overSpdy);
        return upgrade(request, ChannelProtocol.REMOTE_COMMAND, session.readableChannels(), name, spdy, session::overWebSocket);
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
        String name = "portForward " + namespace + "/" + podName + " " + ports;
        Optional<StreamingRuntime> server = runtime.streamingRuntime();
        if (server.isPresent()) {
            return proxyStream(request, name, () -> server.get().getPortForward(sandbox.get(), ports));
        }
        PortForwardSession session = new PortForwardSession(runtime, sandbox.get());
        SpdyPlan spdy = new SpdyPlan(List.of(PortForwardSession.SPDY_PROTOCOL), type -> type.equals("data"),
                version -> session::overSpdy);
        return upgrade(request, ChannelProtocol.PORT_FORWARD, PortForwardSession.readableChannels(ports), name, spdy,
                channels -> session.overWebSocket(channels, ports));
    }

    /**
     * Upstream's {@code proxyStream}: the session's URL from the runtime (its error as {@code streaming.WriteError}
     * answers it: 404 for a missing container or sandbox, else 500, with the error's text), then the client's upgrade
     * request proxied there; a request that is no upgrade gets the proxy's 500 {@code Upgrade request required}.
     */
    private Response proxyStream(Request request, String name, Supplier<URI> url) {
        URI location;
        try {
            location = url.get();
        } catch (NotFoundException e) {
            return Response.restfulError(404, e.getMessage());
        } catch (RuntimeException e) {
            log.warn("{}: the runtime gave no streaming URL: {}", name, e.getMessage());
            return Response.restfulError(500, e.getMessage());
        }
        if (!isUpgradeRequest(request)) {
            return Response.goError(500, "Upgrade request required");
        }
        if (!sessions.tryOpen()) {
            return tooManySessions(name);
        }
        return Response.upgrade(new StreamProxy(name, location, request, sessions));
    }

    /** The answer of a session over the cap, logged as a warning at most once a minute. */
    private Response tooManySessions(String name) {
        if (sessions.warnAboutRefusal()) {
            log.warn("{}: refused (429), {} streaming sessions are open already, the most allowed", name,
                    sessions.maxSessions());
        } else {
            log.debug("{}: refused (429), {} streaming sessions are open already", name, sessions.maxSessions());
        }
        return Response.restfulError(429, "maximum number of in-flight requests exceeded")
                .withHeader("Retry-After", RETRY_AFTER_SECONDS);
    }

    /** What an SPDY session serves: its protocol versions, the stream types it reads, its body per version. */
    private record SpdyPlan(List<String> protocols, Predicate<String> readable,
                            Function<String, SpdySession.Body> body) {}

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
            return tooManySessions(name);
        }
        return Response.upgrade(new SpdySession(name, chosen, spdy.readable(), sessions, spdy.body().apply(chosen)));
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
    private Response upgrade(Request request, Set<ChannelProtocol> supported, boolean[] readable, String name,
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
            return tooManySessions(name);
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
