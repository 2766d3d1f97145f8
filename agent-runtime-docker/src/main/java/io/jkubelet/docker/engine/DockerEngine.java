package io.jkubelet.docker.engine;

import tools.jackson.core.JacksonException;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A client of one Docker daemon's Engine API. {@link #connect} pings the daemon and settles the API version as the
 * Docker CLI does: the daemon's {@code Api-Version}, at most {@link #MAX_API_VERSION} (the version these records
 * follow); every later call goes to {@code /v<version>/...}. Short calls give up after the request timeout
 * ({@code runtimeRequestTimeout}); streams and waits do not. The calls are grouped as the API groups them:
 * {@link #containers()}, {@link #images()}, {@link #execs()}. Thread-safe.
 */
public final class DockerEngine implements AutoCloseable {
    /** The Engine API of Docker 20.10, whose fields the records name. */
    public static final String MAX_API_VERSION = "1.41";
    /** What a daemon whose ping names no version speaks (the CLI's fallback). */
    private static final String FALLBACK_API_VERSION = "1.24";
    /** Idle connections kept: more calls than this at once is rare for one kubelet. */
    private static final int MAX_IDLE = 8;

    private final EngineHttp http;
    private final Duration requestTimeout;
    private final String apiVersion;
    private final EngineContainers containers;
    private final EngineImages images;
    private final EngineExecs execs;

    private DockerEngine(EngineHttp http, Duration requestTimeout, String apiVersion) {
        this.http = http;
        this.requestTimeout = requestTimeout;
        this.apiVersion = apiVersion;
        this.containers = new EngineContainers(this);
        this.images = new EngineImages(this);
        this.execs = new EngineExecs(this);
    }

    /**
     * Connects to the daemon at {@code endpoint} and settles the API version.
     *
     * @param requestTimeout how long a short call waits for an answer (null: for ever)
     * @throws IllegalArgumentException when the endpoint is malformed
     * @throws EngineCallException.Unreachable when the daemon does not answer, naming the endpoint
     */
    public static DockerEngine connect(String endpoint, Duration requestTimeout) {
        EngineHttp http = new EngineHttp(EngineEndpoint.parse(endpoint), MAX_IDLE);
        try {
            String version = negotiate(http.ping(requestTimeout));
            return new DockerEngine(http, requestTimeout, version);
        } catch (RuntimeException e) {
            http.close();
            throw e;
        }
    }

    /** The lower of the daemon's version and {@link #MAX_API_VERSION}. */
    static String negotiate(String daemonVersion) {
        if (daemonVersion == null || daemonVersion.isBlank()) {
            return FALLBACK_API_VERSION;
        }
        return compare(daemonVersion.strip(), MAX_API_VERSION) < 0 ? daemonVersion.strip() : MAX_API_VERSION;
    }

    private static int compare(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int d = Integer.compare(i < x.length ? Integer.parseInt(x[i]) : 0, i < y.length ? Integer.parseInt(y[i]) : 0);
            if (d != 0) {
                return d;
            }
        }
        return 0;
    }

    public String apiVersion() {
        return apiVersion;
    }

    public EngineEndpoint endpoint() {
        return http.endpoint();
    }

    /** How long a short call waits for an answer; null for ever. */
    Duration requestTimeout() {
        return requestTimeout;
    }

    public EngineContainers containers() {
        return containers;
    }

    public EngineImages images() {
        return images;
    }

    public EngineExecs execs() {
        return execs;
    }

    /** {@code GET /_ping}: the daemon's API version. */
    public String ping() {
        return http.ping(requestTimeout);
    }

    /** {@code GET /version}. */
    public SystemVersion version() {
        return get("/version", SystemVersion.class, "version");
    }

    /** {@code GET /info}. */
    public SystemInfo info() {
        return get("/info", SystemInfo.class, "info");
    }

    /**
     * {@code GET /events}: the daemon's events from {@code since} on, as they happen, until the stream is closed.
     *
     * @param since {@code seconds.nanoseconds} since the epoch, or null for events from now on
     * @param filters e.g. {@code type} to {@code container}, {@code label} to {@code key} or {@code key=value}
     */
    public EngineStream<EventMessage> events(String since, Map<String, List<String>> filters) {
        String path = "/events" + new Query().add("since", since).filters(filters);
        return stream(request("GET", path, Map.of(), null, null), EventMessage.class, "events");
    }

    // What the facets use.

    <T> T get(String path, Class<T> type, String what) {
        return call(request("GET", path, Map.of(), null, requestTimeout), type, what);
    }

    <T> T post(String path, Object body, Class<T> type, String what) {
        return call(request("POST", path, Map.of(), body, requestTimeout), type, what);
    }

    /** A call whose answer has no body the caller reads; the timeout is the request timeout unless given. */
    void send(String method, String path, Object body, Duration timeout, String what) {
        call(request(method, path, Map.of(), body, timeout == null ? requestTimeout : timeout), null, what);
    }

    EngineRequest request(String method, String path, Map<String, String> headers, Object body, Duration timeout) {
        return new EngineRequest(method, "/v" + apiVersion + path, headers, body == null ? null : EngineJson.write(body),
                timeout);
    }

    /** Sends the request and reads its answer as {@code type} (null: the answer is read and dropped). */
    <T> T call(EngineRequest request, Class<T> type, String what) {
        try (EngineResponse response = http.send(request, what).requireSuccess(what)) {
            if (type == null) {
                response.body().transferTo(OutputStream.nullOutputStream());
                return null;
            }
            return EngineJson.MAPPER.readValue(response.body().readAllBytes(), type); // to its end: kept alive
        } catch (IOException e) {
            throw new EngineCallException.Unreachable(what, "reading the answer failed: " + e.getMessage(), e);
        } catch (JacksonException e) {
            throw new EngineCallException.Unreachable(what, "the answer is not the JSON expected: "
                    + e.getOriginalMessage(), e);
        } catch (UncheckedIOException e) {
            throw new EngineCallException.Unreachable(what, "reading the answer failed: " + e.getMessage(), e);
        }
    }

    /** Sends the request and hands over the successful answer's body unread. */
    EngineResponse open(EngineRequest request, String what) {
        try {
            return http.send(request, what).requireSuccess(what);
        } catch (IOException e) {
            throw new EngineCallException.Unreachable(what, "reading the answer failed: " + e.getMessage(), e);
        }
    }

    <T> EngineStream<T> stream(EngineRequest request, Class<T> type, String what) {
        return new EngineStream<>(open(request, what), type, what);
    }

    HijackedStream upgrade(EngineRequest request, String what) {
        return http.upgrade(request, what);
    }

    /** Idle kept-alive connections now (for the pool's tests). */
    int idleConnections() {
        return http.idleConnections();
    }

    @Override
    public void close() {
        http.close();
    }
}
