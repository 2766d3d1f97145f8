package io.jkubelet.cmd.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code /pods} and {@code /stats/summary} under load, jkubelet beside the upstream kubelet v1.20.2 on the bench
 * engine: each agent in turn runs the same N static pods (two containers each) with its read-only port open;
 * once every pod is in its {@code /pods} and in its summary with both containers, and the agent has settled,
 * {@code wrk} with C keep-alive connections loads each path for a warm-up (discarded), then for the measured
 * run. Rounds alternate which agent goes first, so that the machine's load (other work compiles on the same
 * two cores) falls on both; the table gives the medians of the per-round figures and jkubelet / upstream.
 * Per-round figures go to stderr.
 *
 * <p>System properties, besides {@link ReferenceBench}'s: {@code bench.rounds}, {@code bench.pods},
 * {@code bench.seconds} (measured run per path), {@code bench.warmup} (seconds), {@code bench.connections},
 * {@code bench.settle} (seconds from all pods listed to the first run), {@code bench.responses} (a directory to
 * keep one answer of each agent and path in).
 */
public final class ReferenceHttpBench {
    static final List<String> PATHS = List.of("/pods", "/stats/summary");
    static final ObjectMapper JSON = new ObjectMapper();

    /** One measured wrk run: latency percentiles (ms), requests/s, the agent's CPU (cores), response bytes. */
    record Measure(double p50, double p90, double p99, double rps, double cores, int bytes) {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.getInteger("bench.rounds", 3);
        int pods = Integer.getInteger("bench.pods", 110);
        int seconds = Integer.getInteger("bench.seconds", 15);
        int warmup = Integer.getInteger("bench.warmup", 5);
        int connections = Integer.getInteger("bench.connections", 50);
        int settle = Integer.getInteger("bench.settle", 20);
        DockerClient docker = ReferenceBench.docker();
        List<ReferenceBench.Agent> agents = List.of(new ReferenceBench.Upstream(), new ReferenceBench.Jkubelet());
        Map<String, List<Measure>> measures = new LinkedHashMap<>(); // "<agent> <path>" -> one per round
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < agents.size(); i++) {
                ReferenceBench.Agent agent = agents.get((i + r) % agents.size());
                // The paths' order alternates too, so that neither always meets the agent freshly settled.
                List<String> paths = r % 2 == 0 ? PATHS : PATHS.reversed();
                Map<String, Measure> round = load(docker, agent, pods, settle, paths, warmup, seconds, connections);
                for (Map.Entry<String, Measure> e : round.entrySet()) {
                    Measure m = e.getValue();
                    System.err.printf(Locale.ROOT, "round %d %s %s: p50 %.2f p90 %.2f p99 %.2f ms, %.0f req/s, %.3f cores, %d bytes%n",
                            r + 1, agent.name(), e.getKey(), m.p50(), m.p90(), m.p99(), m.rps(), m.cores(), m.bytes());
                    measures.computeIfAbsent(agent.name() + " " + e.getKey(), k -> new ArrayList<>()).add(m);
                }
            }
        }
        System.out.printf(Locale.ROOT, "%d pods, %d connections, %d s per path and round after %d s of warm-up, %d rounds "
                + "(medians of the per-round figures)%n%n", pods, connections, seconds, warmup, rounds);
        System.out.println("| path | measure | upstream kubelet v1.20.2 | jkubelet | jkubelet / upstream |");
        System.out.println("|---|---|---:|---:|---:|");
        for (String path : PATHS) {
            List<Measure> u = measures.get("upstream " + path), j = measures.get("jkubelet " + path);
            row(path, "bytes per response (thousands)", u, j, m -> m.bytes() / 1000.0);
            row(path, "requests/s", u, j, Measure::rps);
            row(path, "p50 (ms)", u, j, Measure::p50);
            row(path, "p90 (ms)", u, j, Measure::p90);
            row(path, "p99 (ms)", u, j, Measure::p99);
            row(path, "agent CPU (cores)", u, j, Measure::cores);
            row(path, "agent CPU ms per request", u, j, m -> 1000 * m.cores() / m.rps());
        }
    }

    static void row(String path, String what, List<Measure> u, List<Measure> j, java.util.function.ToDoubleFunction<Measure> f) {
        double uv = median(u, f), jv = median(j, f);
        double ratio = jv / uv;
        System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | " + (ratio < 0.1 ? "%.3f" : "%.2f") + " |%n", path, what,
                ReferenceBench.fmt(uv), ReferenceBench.fmt(jv), ratio);
    }

    static double median(List<Measure> l, java.util.function.ToDoubleFunction<Measure> f) {
        return PodStartupBench.median(l.stream().map(m -> f.applyAsDouble(m)).toList());
    }

    /** Starts the agent with n pods, waits until they are listed and settled, then loads each path in turn. */
    static Map<String, Measure> load(DockerClient docker, ReferenceBench.Agent agent, int n, int settle, List<String> paths,
            int warmup, int seconds, int connections) throws Exception {
        int port = PodStartupBench.freePort();
        ReferenceBench.Run run = ReferenceBench.start(agent, n, port);
        try {
            PodStartupBench.waitFor(() -> ReferenceBench.running(docker) >= 2 * n, Duration.ofMinutes(5), n + " pods of " + agent.name());
            // Both agents' answers must describe the same node before either is loaded: every pod in /pods, and
            // in the summary with both containers (the summary follows the stats rounds, up to 10-15 s later).
            PodStartupBench.waitFor(() -> listed(port, n), Duration.ofMinutes(2), n + " pods in " + agent.name() + "'s answers");
            Thread.sleep(settle * 1000L);
            Map<String, Measure> out = new LinkedHashMap<>();
            for (String path : paths) {
                String url = "http://127.0.0.1:" + port + path;
                byte[] body = get(port, path);
                String keep = System.getProperty("bench.responses", "");
                if (!keep.isEmpty()) {
                    // One answer of each agent, to compare what the two send (e.g. why their sizes differ).
                    Files.write(Files.createDirectories(Path.of(keep)).resolve(agent.name() + path.replace('/', '_') + ".json"), body);
                }
                int bytes = body.length;
                HttpBench.wrk(url, warmup, connections);
                long pid = run.process().pid();
                long t0 = ReferenceBench.cpuTicks(pid), n0 = System.nanoTime();
                String wrk = HttpBench.wrk(url, seconds, connections);
                double cores = (ReferenceBench.cpuTicks(pid) - t0) / (double) ReferenceBench.HZ / ((System.nanoTime() - n0) / 1e9);
                out.put(path, new Measure(HttpBench.millis(wrk, "50%"), HttpBench.millis(wrk, "90%"), HttpBench.millis(wrk, "99%"),
                        HttpBench.number(wrk, "Requests/sec:\\s+([\\d.]+)"), cores, bytes));
            }
            return out;
        } finally {
            ReferenceBench.stop(docker, run);
        }
    }

    /** Whether the agent's /pods lists n pods and its summary n pods of two containers each. */
    static boolean listed(int port, int n) throws Exception {
        JsonNode pods;
        try {
            pods = JSON.readTree(get(port, "/pods"));
        } catch (java.io.IOException e) {
            return false; // not serving yet
        }
        if (pods.path("items").size() < n) {
            return false;
        }
        JsonNode summary = JSON.readTree(get(port, "/stats/summary"));
        int complete = 0;
        for (JsonNode pod : summary.path("pods")) {
            complete += pod.path("containers").size() >= 2 ? 1 : 0;
        }
        return complete >= n;
    }

    static byte[] get(int port, String path) throws Exception {
        HttpResponse<byte[]> r = ReferenceBench.HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + r.statusCode());
        }
        return r.body();
    }
}
