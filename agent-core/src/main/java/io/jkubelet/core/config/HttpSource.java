package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.util.DaemonThreads;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Static pods fetched from {@code staticPodURL} ({@code pkg/kubelet/config/http.go}).
 *
 * <p>Every {@code httpCheckFrequency} the source GETs the URL with the configured headers (every
 * value of every header), giving the whole exchange {@value #TIMEOUT_SECONDS} seconds. A status other
 * than 200 is an error. An empty body sends an empty {@link PodOperation#SET}. A body equal to the
 * last one delivered sends nothing. Otherwise the body is read as one Pod, then as a PodList, and the
 * pods are sent as a SET. A failure sends nothing, so the pods that run keep running; failures are
 * logged three times, then at debug level until a fetch succeeds again.
 *
 * <p>Lifecycle: {@link #start()} once, {@link #close()} to stop; close is idempotent. Fetches run on
 * one thread, so they never overlap.
 */
public final class HttpSource implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(HttpSource.class);

    static final int TIMEOUT_SECONDS = 10;
    private static final Duration TIMEOUT = Duration.ofSeconds(TIMEOUT_SECONDS);
    /** Failures logged at info level before the source goes quiet ({@code failureLogs < 3}). */
    static final int LOUD_FAILURES = 3;
    /** Headers java.net.http sets itself and refuses to take from us. */
    private static final Set<String> RESTRICTED_HEADERS = Set.of("connection", "content-length", "expect", "host",
            "upgrade");

    private final URI url;
    private final Map<String, List<String>> headers;
    private final String nodeName;
    private final Duration period;
    private final PodUpdateSink sink;
    private final HttpClient client;
    private final ScheduledExecutorService executor;
    private final boolean ownsExecutor;
    private final Duration timeout;

    private final Object lifecycle = new Object();
    private boolean started;
    private volatile boolean closed;
    private ScheduledFuture<?> periodic;

    // Guarded by "this".
    private byte[] lastData;
    private int failureLogs;

    /**
     * @param staticPodUrl       the URL, http or https
     * @param headers            {@code staticPodURLHeader}: every value of every header is sent
     * @param nodeName           the node's name (pod names get it as a suffix)
     * @param httpCheckFrequency how often to fetch
     * @param sink               where the snapshots go, usually {@code podConfig.channel(PodSources.HTTP)}
     * @throws IllegalArgumentException when the URL is not http(s) or a header cannot be sent
     */
    public HttpSource(URI staticPodUrl, Map<String, List<String>> headers, String nodeName,
            Duration httpCheckFrequency, PodUpdateSink sink) {
        this(staticPodUrl, headers, nodeName, httpCheckFrequency, sink, null, null, TIMEOUT);
    }

    /**
     * As above, with the HTTP client and the executor to fetch on (single-threaded). The caller keeps
     * ownership of what it passes; for each {@code null} the source makes its own.
     */
    public HttpSource(URI staticPodUrl, Map<String, List<String>> headers, String nodeName,
            Duration httpCheckFrequency, PodUpdateSink sink, HttpClient client, ScheduledExecutorService executor) {
        this(staticPodUrl, headers, nodeName, httpCheckFrequency, sink, client, executor, TIMEOUT);
    }

    /** As above, with another timeout for the whole exchange: for tests. */
    HttpSource(URI staticPodUrl, Map<String, List<String>> headers, String nodeName, Duration httpCheckFrequency,
            PodUpdateSink sink, HttpClient client, ScheduledExecutorService executor, Duration timeout) {
        String scheme = staticPodUrl.getScheme() == null ? "" : staticPodUrl.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("staticPodURL: " + staticPodUrl + ": must be an http or https URL");
        }
        if (httpCheckFrequency.isNegative() || httpCheckFrequency.isZero()) {
            throw new IllegalArgumentException("httpCheckFrequency must be positive, got " + httpCheckFrequency);
        }
        Map<String, List<String>> copy = new LinkedHashMap<>();
        headers.forEach((name, values) -> {
            if (RESTRICTED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("staticPodURLHeader: header \"" + name
                        + "\" cannot be set: the HTTP client sets it itself");
            }
            copy.put(name, List.copyOf(values));
        });
        this.url = staticPodUrl;
        this.headers = Map.copyOf(copy);
        this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
        this.period = httpCheckFrequency;
        this.sink = Objects.requireNonNull(sink, "sink");
        this.client = client != null ? client : HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NORMAL) // as Go's http.Client does
                .build();
        this.timeout = timeout;
        this.ownsExecutor = executor == null;
        this.executor = executor != null ? executor : DaemonThreads.scheduler("static-pod-url-source");
    }

    /** Fetches now, then every {@code httpCheckFrequency}. */
    public void start() {
        synchronized (lifecycle) {
            if (closed || started) {
                throw new IllegalStateException(closed ? "the URL source is closed" : "the URL source is started");
            }
            started = true;
            log.info("Fetching static pods from {} every {}", url, period);
            periodic = executor.scheduleWithFixedDelay(this::run, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            if (periodic != null) {
                periodic.cancel(true);
            }
            if (ownsExecutor) {
                executor.shutdownNow();
            }
        }
    }

    /** One fetch, with the kubelet's throttled failure logging. */
    synchronized void run() {
        if (closed) {
            return;
        }
        try {
            extractFromUrl();
            if (failureLogs > 0) {
                log.info("Successfully read pods from URL {}", url);
                failureLogs = 0;
            }
        } catch (IOException | RuntimeException e) {
            String message = e instanceof IOException ? e.getMessage() : e.toString();
            if (failureLogs < LOUD_FAILURES) {
                log.info("Failed to read pods from URL: {}", message);
            } else if (failureLogs == LOUD_FAILURES) {
                log.info("Failed to read pods from URL: {}. Logging further failures at debug level", message);
            } else {
                log.debug("Failed to read pods from URL: {}", message);
            }
            failureLogs++;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Fetches the URL and sends what it serves.
     *
     * @throws IOException saying what went wrong, starting with the URL
     */
    synchronized void extractFromUrl() throws IOException, InterruptedException {
        byte[] data = fetch();
        if (data.length == 0) {
            // Remember it, or the same pods served again afterwards would look unchanged.
            lastData = data;
            sink.send(PodUpdate.set(PodSources.HTTP, List.of()));
            throw new IOException("zero-length data received from " + url);
        }
        if (lastData != null && Arrays.equals(data, lastData)) {
            return;
        }
        StaticPodDefaults defaults = StaticPodDefaults.forUrl(nodeName, url.toString());
        DecodeResult<Pod> single = StaticPodDecoder.tryDecodeSinglePod(data, defaults);
        if (single instanceof DecodeResult.Decoded<Pod> decoded) {
            deliver(data, List.of(decoded.value()));
            return;
        }
        if (single instanceof DecodeResult.Invalid<Pod> invalid) {
            throw new IOException(describe(invalid.errors()));
        }
        DecodeResult<List<Pod>> list = StaticPodDecoder.tryDecodePodList(data, defaults);
        switch (list) {
            case DecodeResult.Decoded<List<Pod>> decoded -> deliver(data, decoded.value());
            case DecodeResult.Invalid<List<Pod>> invalid -> throw new IOException(describe(invalid.errors()));
            case DecodeResult.NotParsed<List<Pod>> notParsed -> throw new IOException(url + ": received '"
                    + excerpt(data) + "', but couldn't parse as single (" + ((DecodeResult.NotParsed<Pod>) single)
                    .reason() + ") or multiple pods (" + notParsed.reason() + ")");
        }
    }

    private void deliver(byte[] data, List<Pod> pods) {
        lastData = data;
        sink.send(PodUpdate.set(PodSources.HTTP, pods));
    }

    private String describe(List<String> errors) {
        return errors.stream().map(error -> url + ": " + error).collect(Collectors.joining("; "));
    }

    private byte[] fetch() throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(url).GET().timeout(timeout);
        headers.forEach((name, values) -> values.forEach(value -> request.header(name, value)));
        CompletableFuture<HttpResponse<byte[]>> exchange = client.sendAsync(request.build(),
                info -> new LimitedBody(PodCodec.MAX_MANIFEST_BYTES));
        HttpResponse<byte[]> response;
        try {
            // Go's client timeout covers the whole exchange, body included; so does this.
            response = exchange.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new IOException(url + ": no complete response within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            exchange.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof HttpTimeoutException) {
                // The client's own request timeout (the same deadline) may fire first: one message for both.
                throw new IOException(url + ": no complete response within " + timeout.toMillis() + " ms", cause);
            }
            throw new IOException(url + ": " + (cause.getMessage() != null ? cause.getMessage() : cause.toString()),
                    cause);
        }
        if (response.statusCode() != 200) {
            throw new IOException(url + ": HTTP status " + response.statusCode());
        }
        return response.body();
    }

    private static String excerpt(byte[] data) {
        String text = new String(data, 0, Math.min(data.length, 200), StandardCharsets.UTF_8);
        return data.length > 200 ? text + "..." : text;
    }

    /** Collects the body, failing once it exceeds the limit (as {@code utilio.ReadAtMost}). */
    private static final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final int limit;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private Flow.Subscription subscription;

        LimitedBody(int limit) {
            this.limit = limit;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer buffer : buffers) {
                byte[] chunk = new byte[buffer.remaining()];
                buffer.get(chunk);
                body.writeBytes(chunk);
            }
            if (body.size() > limit) {
                subscription.cancel();
                result.completeExceptionally(new IOException("the response is larger than the "
                        + PodCodec.MAX_MANIFEST_SIZE + " a manifest may have"));
            }
        }

        @Override
        public void onError(Throwable throwable) {
            result.completeExceptionally(throwable);
        }

        @Override
        public void onComplete() {
            result.complete(body.toByteArray());
        }
    }
}
