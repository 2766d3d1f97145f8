package io.jkubelet.deviceplugin;

import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import io.jkubelet.core.cm.devicemanager.DevicePluginException;
import io.jkubelet.core.cm.devicemanager.DevicePluginServer;
import io.jkubelet.core.cm.devicemanager.PluginHandler;
import io.jkubelet.core.cm.devicemanager.ResourceNames;
import io.jkubelet.core.pluginmanager.PluginWatcherHandler;
import io.jkubelet.deviceplugin.v1beta1.DevicePluginApi;
import io.jkubelet.deviceplugin.v1beta1.RegistrationGrpc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The device plugin registration server (upstream {@code plugin/v1beta1/server.go} and {@code handler.go}): serves
 * {@code Registration} on the kubelet's socket, and for each plugin that registers there (or that the plugin watcher
 * finds) connects a {@link PluginClient} and runs it until its {@code ListAndWatch} ends. Plugins are told apart by
 * resource and socket, so that a plugin's old stream ending after it registered again does not disconnect the new one.
 */
public final class RegistrationServer implements DevicePluginServer, PluginWatcherHandler {
    private static final Logger log = LoggerFactory.getLogger(RegistrationServer.class);
    /** Upstream {@code pluginapi.Version} and {@code SupportedVersions}. */
    static final String VERSION = "v1beta1";
    static final List<String> SUPPORTED_VERSIONS = List.of(VERSION);
    /**
     * How long the kubelet waits for a plugin's {@code GetDevicePluginOptions}, {@code GetPreferredAllocation} and
     * {@code Allocate}. Upstream sets no deadline there: a plugin that never answers {@code Allocate} holds the
     * kubelet's sync loop (admission runs on it) for ever. 30 s is upstream's own bound on {@code PreStartContainer}.
     */
    public static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final Path socket;
    private final Duration callTimeout;
    private final List<PluginClient> clients = new ArrayList<>();
    private PluginHandler handler;
    private Server grpc;

    /** @param socket upstream's {@link DevicePluginServer#KUBELET_SOCKET}; another path in tests */
    public RegistrationServer(Path socket, Duration callTimeout) {
        if (!socket.isAbsolute()) {
            throw new IllegalArgumentException("bad socketPath, must be an absolute path: " + socket);
        }
        this.socket = socket;
        this.callTimeout = callTimeout;
    }

    public RegistrationServer(Path socket) {
        this(socket, CALL_TIMEOUT);
    }

    @Override
    public Path socketPath() {
        return socket;
    }

    @Override
    public synchronized void start(PluginHandler handler) throws IOException {
        log.debug("Starting device plugin registration server");
        Path dir = socket.getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-x---")));
        }
        this.handler = handler;
        handler.cleanupPluginDirectory(dir);
        grpc = UnixSockets.serve(socket, new RegistrationService());
        log.info("Serving device plugin registration server on {}", socket);
    }

    @Override
    public void stop() {
        for (PluginClient c : snapshot()) {
            disconnectClient(c);
        }
        Server s;
        synchronized (this) {
            s = grpc;
            grpc = null;
        }
        if (s != null) {
            s.shutdownNow();
            try {
                Files.deleteIfExists(socket);
            } catch (IOException e) {
                log.debug("Cannot remove {}: {}", socket, e.getMessage());
            }
        }
    }

    /** Upstream {@code GetPluginHandler}: plugins that see the {@code DEPRECATION} file register through the watcher. */
    @Override
    public PluginWatcherHandler watcherHandler() {
        Path deprecation = socket.getParent().resolve("DEPRECATION");
        try {
            Files.createDirectories(deprecation.getParent());
            Files.write(deprecation, new byte[0]);
            log.debug("Created deprecation file {}", deprecation);
        } catch (IOException e) {
            log.error("Failed to create deprecation file at socket dir {}: {}", socket.getParent(), e.getMessage());
        }
        return this;
    }

    /** The {@code Registration} service: checks the request, then connects to the plugin before answering. */
    private final class RegistrationService extends RegistrationGrpc.RegistrationImplBase {
        @Override
        public void register(DevicePluginApi.RegisterRequest r, StreamObserver<DevicePluginApi.Empty> answer) {
            log.info("Got registration request from device plugin with resource {}", r.getResourceName());
            handler.registrationRequested(r.getResourceName());
            try {
                if (!SUPPORTED_VERSIONS.contains(r.getVersion())) {
                    throw new IllegalArgumentException("requested API version \"" + r.getVersion()
                            + "\" is not supported by kubelet. Supported version is [\"" + VERSION + "\"]");
                }
                if (!ResourceNames.isExtendedResourceName(r.getResourceName())) {
                    throw new IllegalArgumentException("the ResourceName \"" + r.getResourceName() + "\" is invalid");
                }
                connectClient(r.getResourceName(), socket.getParent().resolve(r.getEndpoint()));
            } catch (IllegalArgumentException | DevicePluginException e) {
                log.info("Bad registration request from device plugin with resource {}: {}", r.getResourceName(),
                        e.getMessage());
                answer.onError(GrpcErrors.unknown(e.getMessage()));
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                answer.onError(GrpcErrors.unknown("interrupted"));
                return;
            }
            answer.onNext(DevicePluginApi.Empty.getDefaultInstance());
            answer.onCompleted();
        }
    }

    // ---- the plugin watcher's handler (upstream handler.go) ----

    @Override
    public void validatePlugin(String pluginName, String endpoint, List<String> versions) {
        log.debug("Got plugin {} at endpoint {} with versions {}", pluginName, endpoint, versions);
        if (versions.stream().noneMatch(SUPPORTED_VERSIONS::contains)) {
            throw new IllegalArgumentException("manager version, " + VERSION + ", is not among plugin supported versions "
                    + "[" + String.join(" ", versions) + "]");
        }
        if (!ResourceNames.isExtendedResourceName(pluginName)) {
            throw new IllegalArgumentException("invalid name of device plugin socket: the ResourceName \"" + pluginName
                    + "\" is invalid");
        }
    }

    @Override
    public void registerPlugin(String pluginName, String endpoint, List<String> versions) throws Exception {
        log.debug("Registering plugin {} at endpoint {}", pluginName, endpoint);
        connectClient(pluginName, Path.of(endpoint));
    }

    @Override
    public void deRegisterPlugin(String pluginName, String endpoint) {
        log.debug("Deregistering plugin {} at endpoint {}", pluginName, endpoint);
        for (PluginClient c : snapshot()) {
            if (c.resource().equals(pluginName) && c.socketPath().equals(endpoint)) {
                disconnectClient(c);
            }
        }
    }

    // ---- clients ----

    private void connectClient(String name, Path pluginSocket) throws DevicePluginException, InterruptedException {
        PluginClient c = new PluginClient(name, pluginSocket, handler, callTimeout);
        synchronized (clients) {
            clients.add(c);
        }
        try {
            c.connect();
        } catch (DevicePluginException | InterruptedException | RuntimeException e) {
            deregister(c);
            log.error("Failed to connect to new client {}: {}", name, e.getMessage());
            throw e;
        }
        log.debug("Connected to new client {}", name);
        c.run(() -> {
            // Upstream runClient: a client still registered when its stream ends is disconnected.
            if (deregister(c)) {
                c.disconnect();
            }
        });
    }

    private void disconnectClient(PluginClient c) {
        deregister(c);
        c.disconnect();
    }

    private boolean deregister(PluginClient c) {
        synchronized (clients) {
            return clients.remove(c);
        }
    }

    private List<PluginClient> snapshot() {
        synchronized (clients) {
            return List.copyOf(clients);
        }
    }
}
