package io.jkubelet.core.pluginmanager;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.stream.Stream;

/**
 * The plugin manager (upstream {@code pluginmanager}: its watcher, desired and actual states of the world and
 * reconciler): every second it looks for registration sockets in the plugin registry directory and its
 * subdirectories (names starting with "." are not looked at), registers each new one with the handler of its type,
 * tells the plugin how that went, and deregisters a plugin whose socket went or was made anew. A failed registration is
 * tried again with upstream's exponential back-off (500 ms doubling up to 2 min 2 s). Registrations run on
 * {@code operations}, one at a time per socket.
 *
 * <p>Upstream's watcher is told of new sockets by inotify; this one looks at the directory at each reconcile, which
 * comes every second either way.
 */
public final class PluginManager {
    private static final Logger log = LoggerFactory.getLogger(PluginManager.class);
    /** Upstream {@code pluginregistration.DevicePlugin} and {@code CSIPlugin}: the plugin types. */
    public static final String DEVICE_PLUGIN = "DevicePlugin";
    public static final String CSI_PLUGIN = "CSIPlugin";
    /** Upstream's {@code exponentialbackoff} of an operation that failed. */
    static final Duration INITIAL_BACKOFF = Duration.ofMillis(500);
    static final Duration MAX_BACKOFF = Duration.ofMinutes(2).plusSeconds(2);

    /** A socket as found: a new file at the same path is another plugin (upstream's timestamp). */
    record Found(Object fileKey, Instant modified) {}

    /** A plugin registered from a socket (upstream {@code cache.PluginInfo}). */
    record Registered(Found found, String name, String endpoint, PluginWatcherHandler handler) {}

    private record Retry(Instant notBefore, Duration backoff) {}

    private final Path dir;
    private final PluginRegistrationClient client;
    private final Clock clock;
    private final Executor operations;
    private final Map<String, PluginWatcherHandler> handlers = new ConcurrentHashMap<>();
    private final Map<Path, Registered> actual = new ConcurrentHashMap<>();
    private final Map<Path, Retry> retries = new ConcurrentHashMap<>();
    private final Set<Path> inFlight = ConcurrentHashMap.newKeySet();

    /** @param dir upstream's {@code <root-dir>/plugins_registry} */
    public PluginManager(Path dir, PluginRegistrationClient client, Clock clock, Executor operations) {
        this.dir = dir;
        this.client = client;
        this.clock = clock;
        this.operations = operations;
    }

    /** Upstream {@code AddHandler}: the consumer of plugins of {@code type} ({@code DevicePlugin}, {@code CSIPlugin}). */
    public void addHandler(String type, PluginWatcherHandler handler) {
        handlers.put(type, handler);
    }

    /** Makes the registry directory (0750) if there is none. */
    public void createDirectory() throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-x---")));
        }
    }

    /**
     * Upstream's {@code Run}: makes the registry directory, then reconciles every second on {@code timers}.
     *
     * @throws IllegalStateException when the directory cannot be made (upstream's "error creating plugins registry
     *     directory")
     */
    public void start(ScheduledExecutorService timers) {
        try {
            createDirectory();
        } catch (IOException e) {
            throw new IllegalStateException("error creating plugins registry directory " + dir + ": " + e.getMessage(), e);
        }
        timers.scheduleWithFixedDelay(this::reconcile, 0, 1, TimeUnit.SECONDS);
    }

    /** One pass of upstream's reconciler: deregisters what went, registers what came. */
    public void reconcile() {
        Map<Path, Found> desired = scan();
        for (var e : new HashMap<>(actual).entrySet()) {
            Found now = desired.get(e.getKey());
            if (now == null || !now.equals(e.getValue().found())) {
                deregister(e.getKey(), e.getValue());
            }
        }
        Instant now = clock.instant();
        desired.forEach((socket, found) -> {
            if (actual.containsKey(socket) || !inFlight.add(socket)) {
                return;
            }
            Retry r = retries.get(socket);
            if (r != null && now.isBefore(r.notBefore())) {
                inFlight.remove(socket);
                return;
            }
            operations.execute(() -> {
                try {
                    register(socket, found);
                } finally {
                    inFlight.remove(socket);
                }
            });
        });
        retries.keySet().retainAll(desired.keySet());
    }

    /** The registered plugins' sockets, by name. */
    public Map<String, Path> registered() {
        Map<String, Path> out = new HashMap<>();
        actual.forEach((socket, r) -> out.put(r.name(), socket));
        return out;
    }

    private void deregister(Path socket, Registered r) {
        log.info("Deregistering plugin {} at socket {}", r.name(), socket);
        actual.remove(socket);
        r.handler().deRegisterPlugin(r.name(), r.endpoint());
    }

    /** Upstream's {@code GenerateRegisterPluginFunc}. */
    private void register(Path socket, Found found) {
        try {
            registerOrFail(socket, found);
            retries.remove(socket);
        } catch (Exception e) {
            log.error("RegisterPlugin error -- failed for socket {}: {}", socket, e.getMessage());
            Retry last = retries.get(socket);
            Duration next = last == null ? INITIAL_BACKOFF : last.backoff().multipliedBy(2);
            next = next.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : next;
            retries.put(socket, new Retry(clock.instant().plus(next), next));
        }
    }

    private void registerOrFail(Path socket, Found found) throws Exception {
        PluginRegistrationClient.PluginInfo info;
        try {
            info = client.getInfo(socket);
        } catch (Exception e) {
            throw new Exception("RegisterPlugin error -- failed to get plugin info using RPC GetInfo at socket " + socket
                    + ", err: " + e.getMessage(), e);
        }
        PluginWatcherHandler handler = handlers.get(info.type());
        if (handler == null) {
            throw notified(socket, "RegisterPlugin error -- no handler registered for plugin type: " + info.type()
                    + " at socket " + socket);
        }
        String endpoint = info.endpoint().isEmpty() ? socket.toString() : info.endpoint();
        try {
            handler.validatePlugin(info.name(), endpoint, info.supportedVersions());
        } catch (RuntimeException e) {
            throw notified(socket, "RegisterPlugin error -- plugin validation failed with err: " + e.getMessage());
        }
        // In the actual state before the handler registers it, so that a socket gone meanwhile deregisters it.
        actual.put(socket, new Registered(found, info.name(), endpoint, handler));
        try {
            handler.registerPlugin(info.name(), endpoint, info.supportedVersions());
        } catch (Exception e) {
            actual.remove(socket);
            throw notified(socket, "RegisterPlugin error -- plugin registration failed with err: " + e.getMessage());
        }
        client.notifyRegistrationStatus(socket, true, "");
        log.info("Registered plugin {} of type {} at {}", info.name(), info.type(), endpoint);
    }

    /** Tells the plugin it was not registered and why; the error is the registration's. */
    private Exception notified(Path socket, String error) {
        try {
            client.notifyRegistrationStatus(socket, false, error);
        } catch (Exception e) {
            return new Exception(error + "; and failed to send the registration status: " + e.getMessage(), e);
        }
        return new Exception(error);
    }

    /** The sockets in the directory and its subdirectories, but those whose names start with ".". */
    private Map<Path, Found> scan() {
        Map<Path, Found> out = new HashMap<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (p.equals(dir) || hidden(p)) {
                    continue;
                }
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (a.isOther() && isSocket(p)) {
                    out.put(p, new Found(a.fileKey(), a.lastModifiedTime().toInstant()));
                }
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            log.debug("Cannot read the plugin registry {}: {}", dir, e.getMessage());
        }
        return out;
    }

    private boolean hidden(Path p) {
        for (Path part : dir.relativize(p)) {
            if (part.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    private static boolean isSocket(Path p) {
        try {
            return ((Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000) == 0140000;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
