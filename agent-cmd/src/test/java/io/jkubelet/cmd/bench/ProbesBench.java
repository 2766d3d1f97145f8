package io.jkubelet.cmd.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.jkubelet.core.config.PodCodec;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Probing cost: N pods, each an httpd container, first without probes and then with an HTTP liveness and
 * readiness probe every second. Reports the agent's CPU and RSS in both phases, probes per second, and
 * probe latency percentiles from the agent's own {@code prober_probe_duration_seconds} histogram, next to
 * the same GETs made with a plain socket from this process (same pods, same rate, in the same run).
 *
 * <p>Run with {@code bench/probes [pods] [seconds]}.
 */
public final class ProbesBench {
    static final String IMAGE = "jkubelet/busybox:1.0";
    static final String APP_CMD = "mkdir -p /www && echo ok > /www/ok && exec httpd -f -p 8080 -h /www";
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final long HZ = 100; // USER_HZ on Linux/x86_64

    public static void main(String[] args) throws Exception {
        String launcher = System.getProperty("jkubelet.launcher", "bin/jkubelet");
        int pods = args.length > 0 ? Integer.parseInt(args[0]) : 110;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        String node = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        Path dir = Files.createTempDirectory("jkubelet-probes");
        Path manifests = Files.createDirectories(dir.resolve("manifests"));
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Process agent = PodStartupBench.startAgent(launcher, node, dir, manifests,
                "--read-only-port", Integer.toString(port), "--max-pods", Integer.toString(Math.max(110, pods)));
        long pid = agent.pid();
        try {
            PodStartupBench.waitFor(() -> PodStartupBench.log(dir).contains("jkubelet started"), Duration.ofSeconds(30), "agent start");
            writePods(manifests, pods, false);
            PodStartupBench.waitFor(() -> allReady(port, pods), Duration.ofMinutes(10), pods + " pods ready");
            Thread.sleep(20_000);
            Sample idle = sample(pid, seconds);

            // The probed pods replace the others only once those are gone: stopping and starting 110 sandboxes
            // at the same moment can deadlock Debian's dockerd 20.10 (moby/moby#46661).
            try (var files = Files.list(manifests)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            PodStartupBench.waitFor(() -> pods(port).isEmpty() && get(port, "/runningpods/").contains("\"items\":null"),
                    Duration.ofMinutes(5), "pods without probes gone");
            writePods(manifests, pods, true);
            PodStartupBench.waitFor(() -> allReady(port, pods) && probedPods(port) == pods, Duration.ofMinutes(10),
                    pods + " pods ready with probes");
            Thread.sleep(20_000);
            String before = get(port, "/metrics/probes");
            Sample probed = sample(pid, seconds);
            String after = get(port, "/metrics/probes");
            Histogram agentHist = Histogram.parse(after).minus(Histogram.parse(before));
            Map<String, Double> results = probeTotals(after);
            probeTotals(before).forEach((result, n) -> results.merge(result, -n, Double::sum));
            double allProbes = results.values().stream().mapToDouble(Double::doubleValue).sum();

            List<String> ips = podIps(port);
            List<Double> raw = rawProbes(ips, 2 * pods, Math.min(seconds, 30));
            Histogram rawHist = Histogram.of(raw);
            Collections.sort(raw);

            System.out.printf("| phase | pods | agent RSS (MiB) | agent CPU (cores) | probes/s (expected) | not successful |%n"
                    + "|---|---:|---:|---:|---:|---|%n");
            System.out.printf("| no probes | %d | %.1f | %.4f | 0 | |%n", pods, idle.rssMiB, idle.cores);
            System.out.printf("| liveness + readiness every 1 s | %d | %.1f | %.4f | %.1f (%d) | %s |%n", pods, probed.rssMiB,
                    probed.cores, allProbes / probed.seconds, 2 * pods, notSuccessful(results));
            System.out.printf("%n| probe latency (ms) | p50 | p90 | p99 |%n|---|---:|---:|---:|%n");
            System.out.printf("| agent, from its histogram | %.2f | %.2f | %.2f |%n", agentHist.quantile(0.5) * 1e3,
                    agentHist.quantile(0.9) * 1e3, agentHist.quantile(0.99) * 1e3);
            System.out.printf("| plain socket GET, same buckets | %.2f | %.2f | %.2f |%n", rawHist.quantile(0.5) * 1e3,
                    rawHist.quantile(0.9) * 1e3, rawHist.quantile(0.99) * 1e3);
            System.out.printf("| plain socket GET, exact | %.2f | %.2f | %.2f |%n", pct(raw, 0.5) * 1e3, pct(raw, 0.9) * 1e3,
                    pct(raw, 0.99) * 1e3);
        } finally {
            agent.destroy();
            agent.waitFor(60, TimeUnit.SECONDS);
            var docker = PodStartupBench.docker();
            PodStartupBench.removeNode(docker, node);
        }
    }

    static void writePods(Path manifests, int n, boolean probes) throws IOException {
        String probe = """
                    livenessProbe: {httpGet: {path: /ok, port: 8080}, periodSeconds: 1}
                    readinessProbe: {httpGet: {path: /ok, port: 8080}, periodSeconds: 1}
                """;
        for (int i = 0; i < n; i++) {
            String name = (probes ? "probed" : "pod") + i;
            Path tmp = manifests.resolveSibling(name + ".yaml");
            Files.writeString(tmp, """
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: %s}
                    spec:
                      terminationGracePeriodSeconds: 2
                      containers:
                      - name: web
                        image: %s
                        imagePullPolicy: IfNotPresent
                        command: ["sh", "-c", "%s"]
                    %s""".formatted(name, IMAGE, APP_CMD, probes ? probe : ""));
            Files.move(tmp, manifests.resolve(tmp.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
    }

    static List<Pod> pods(int port) throws Exception {
        List<Pod> items = PodCodec.mapper().readValue(get(port, "/pods"), PodList.class).getItems();
        return items == null ? List.of() : items;
    }

    static boolean allReady(int port, int n) throws Exception {
        List<Pod> pods = pods(port);
        return pods.size() == n && pods.stream().allMatch(p -> p.getStatus() != null && p.getStatus().getConditions() != null
                && p.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())));
    }

    static long probedPods(int port) throws Exception {
        return pods(port).stream().filter(p -> p.getSpec().getContainers().get(0).getReadinessProbe() != null).count();
    }

    static List<String> podIps(int port) throws Exception {
        return pods(port).stream().map(p -> p.getStatus().getPodIP()).toList();
    }

    static String get(int port, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    record Sample(double rssMiB, double cores, double seconds) {}

    static Sample sample(long pid, int seconds) throws Exception {
        long t0 = cpuTicks(pid);
        long n0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        long t1 = cpuTicks(pid);
        double wall = (System.nanoTime() - n0) / 1e9;
        long rssKb = 0;
        for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (l.startsWith("VmRSS:")) {
                rssKb = Long.parseLong(l.replaceAll("\\D", ""));
            }
        }
        return new Sample(rssKb / 1024.0, (t1 - t0) / (double) HZ / wall, wall);
    }

    static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14, 15)
    }

    /** The same GETs as the probes, from a plain socket, at the same rate: seconds per request. */
    static List<Double> rawProbes(List<String> ips, int perSecond, int seconds) throws Exception {
        List<Double> out = Collections.synchronizedList(new ArrayList<>());
        ScheduledExecutorService s = Executors.newScheduledThreadPool(4);
        long periodMicros = 1_000_000L * ips.size() / perSecond;
        for (int i = 0; i < ips.size(); i++) {
            String ip = ips.get(i);
            Runnable r = () -> {
                for (int k = 0; k < perSecond / ips.size(); k++) {
                    long t = System.nanoTime();
                    if (rawGet(ip)) {
                        out.add((System.nanoTime() - t) / 1e9);
                    }
                }
            };
            s.scheduleAtFixedRate(r, i * periodMicros / ips.size(), periodMicros, TimeUnit.MICROSECONDS);
        }
        Thread.sleep(seconds * 1000L);
        s.shutdownNow();
        s.awaitTermination(10, TimeUnit.SECONDS);
        return new ArrayList<>(out);
    }

    static boolean rawGet(String ip) {
        try (Socket sock = new Socket()) {
            sock.connect(new InetSocketAddress(ip, 8080), 1000);
            sock.setSoTimeout(1000);
            OutputStream o = sock.getOutputStream();
            o.write(("GET /ok HTTP/1.1\r\nHost: " + ip + ":8080\r\nUser-Agent: raw\r\nAccept: */*\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = sock.getInputStream();
            String head = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            in.readAllBytes();
            return head.startsWith("HTTP/1.") && head.contains(" 200");
        } catch (IOException e) {
            return false;
        }
    }

    static double pct(List<Double> sorted, double q) {
        return sorted.isEmpty() ? Double.NaN : sorted.get((int) Math.min(sorted.size() - 1, Math.floor(q * sorted.size())));
    }

    /** A Prometheus histogram summed over its series: cumulative counts by upper bound. */
    private static final Pattern TOTAL = Pattern.compile(
            "^prober_probe_total\\{.*result=\"([^\"]+)\".*} (\\S+)$", Pattern.MULTILINE);

    /** prober_probe_total summed by result (successful, failed, unknown). */
    static Map<String, Double> probeTotals(String text) {
        Map<String, Double> out = new java.util.TreeMap<>();
        Matcher m = TOTAL.matcher(text);
        while (m.find()) {
            out.merge(m.group(1), Double.parseDouble(m.group(2)), Double::sum);
        }
        return out;
    }

    static String notSuccessful(Map<String, Double> results) {
        StringBuilder b = new StringBuilder();
        results.forEach((result, n) -> {
            if (!result.equals("successful") && n > 0) {
                b.append(b.isEmpty() ? "" : ", ").append(String.format("%.0f %s", n, result));
            }
        });
        return b.isEmpty() ? "none" : b.toString();
    }

    record Histogram(TreeMap<Double, Double> buckets, double count) {
        static final double[] DEFAULT_BUCKETS = {.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10};
        private static final Pattern BUCKET = Pattern.compile(
                "^prober_probe_duration_seconds_bucket\\{.*le=\"([^\"]+)\".*} (\\S+)$", Pattern.MULTILINE);

        static Histogram parse(String text) {
            TreeMap<Double, Double> b = new TreeMap<>();
            Matcher m = BUCKET.matcher(text);
            while (m.find()) {
                double le = m.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(1));
                b.merge(le, Double.parseDouble(m.group(2)), Double::sum);
            }
            return new Histogram(b, b.isEmpty() ? 0 : b.lastEntry().getValue());
        }

        static Histogram of(List<Double> values) {
            TreeMap<Double, Double> b = new TreeMap<>();
            for (double le : DEFAULT_BUCKETS) {
                b.put(le, (double) values.stream().filter(v -> v <= le).count());
            }
            b.put(Double.POSITIVE_INFINITY, (double) values.size());
            return new Histogram(b, values.size());
        }

        Histogram minus(Histogram o) {
            TreeMap<Double, Double> b = new TreeMap<>();
            buckets.forEach((le, c) -> b.put(le, c - o.buckets.getOrDefault(le, 0.0)));
            return new Histogram(b, count - o.count);
        }

        /** As PromQL's histogram_quantile: linear within the bucket the rank falls in. */
        double quantile(double q) {
            double rank = q * count;
            double prevLe = 0;
            double prevCount = 0;
            for (Map.Entry<Double, Double> e : buckets.entrySet()) {
                if (e.getValue() >= rank) {
                    if (e.getKey().isInfinite()) {
                        return prevLe;
                    }
                    double inBucket = e.getValue() - prevCount;
                    return prevLe + (e.getKey() - prevLe) * (inBucket == 0 ? 0 : (rank - prevCount) / inBucket);
                }
                prevLe = e.getKey();
                prevCount = e.getValue();
            }
            return Double.NaN;
        }
    }
}
