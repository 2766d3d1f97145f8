package io.jkubelet.server;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.server.json.PodListEncoderTestAccess;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Measures (does not assert) {@code GET /pods} latency on the read-only server: 110 pods (a full node at
 * the default maxPods) and 50 concurrent keep-alive clients, on 127.0.0.1 only. Bounded: a fixed number
 * of requests per client and a 120 s deadline. Run by hand:
 * {@code java -cp <test classpath> io.jkubelet.server.PodsEndpointBench [requestsPerClient]}.
 */
public final class PodsEndpointBench {

    private static final int PODS = 110;
    private static final int CLIENTS = 50;

    public static void main(String[] args) throws Exception {
        int perClient = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < PODS; i++) {
            Pod template = PodListEncoderTestAccess.richPod();
            pods.add(new PodBuilder(template).editMetadata().withName("web-" + i).withUid("uid-" + i).endMetadata().build());
        }
        FakeKubeletView view = new FakeKubeletView();
        view.pods.set(pods);
        try (ReadOnlyServer server = ReadOnlyServer.start(InetAddress.getLoopbackAddress(), 0, view, List.of())) {
            URI uri = URI.create("http://127.0.0.1:" + server.port() + "/pods");
            int bytes = run(uri, 10, 20).bodyBytes; // warm-up
            Result result = run(uri, CLIENTS, perClient);
            long[] lat = result.latenciesNanos;
            Arrays.sort(lat);
            System.out.printf(
                    "GET /pods: %d pods (%d bytes), %d clients x %d requests, %d ok, %.0f req/s, p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                    PODS, bytes, CLIENTS, perClient, lat.length, lat.length / (result.wallNanos / 1e9),
                    pct(lat, 50), pct(lat, 90), pct(lat, 99), lat[lat.length - 1] / 1e6);
        }
    }

    private record Result(long[] latenciesNanos, long wallNanos, int bodyBytes) {}

    private static Result run(URI uri, int clients, int perClient) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        long start = System.nanoTime();
        List<Future<long[]>> futures = new ArrayList<>();
        int[] size = new int[1];
        for (int c = 0; c < clients; c++) {
            futures.add(pool.submit(() -> {
                try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
                    long[] lat = new long[perClient];
                    int n = 0;
                    for (int i = 0; i < perClient && System.nanoTime() < deadline; i++) {
                        long t0 = System.nanoTime();
                        HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofByteArray());
                        long t1 = System.nanoTime();
                        if (r.statusCode() == 200) {
                            lat[n++] = t1 - t0;
                            size[0] = r.body().length;
                        }
                    }
                    return Arrays.copyOf(lat, n);
                }
            }));
        }
        List<long[]> all = new ArrayList<>();
        for (Future<long[]> f : futures) {
            all.add(f.get(180, TimeUnit.SECONDS));
        }
        long wall = System.nanoTime() - start;
        pool.shutdownNow();
        return new Result(all.stream().flatMapToLong(Arrays::stream).toArray(), wall, size[0]);
    }

    private static double pct(long[] sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, index)] / 1e6;
    }
}
