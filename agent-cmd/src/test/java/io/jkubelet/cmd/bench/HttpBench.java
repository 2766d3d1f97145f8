package io.jkubelet.cmd.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kubelet's read endpoints under load: N pods (default 110) running, then {@code wrk} with 50
 * keep-alive connections on each path for a while: latency percentiles, requests/s, bytes per response,
 * and the agent's RSS and CPU during the run. The read-only port is used, so that the numbers are the
 * handlers' and the HTTP stack's (TLS would add its own cost on 10250).
 *
 * <p>Run with {@code bench/http [pods] [seconds] [connections]}.
 */
public final class HttpBench {

    static final List<String> PATHS = List.of("/pods", "/stats/summary", "/metrics", "/metrics/resource", "/healthz");

    public static void main(String[] args) throws Exception {
        String launcher = System.getProperty("jkubelet.launcher", "bin/jkubelet");
        int pods = args.length > 0 ? Integer.parseInt(args[0]) : 110;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int connections = args.length > 2 ? Integer.parseInt(args[2]) : 50;
        String node = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        Path dir = Files.createTempDirectory("jkubelet-http");
        Path manifests = Files.createDirectories(dir.resolve("manifests"));
        int port = PodStartupBench.freePort();
        Process agent = PodStartupBench.startAgent(launcher, node, dir, manifests,
                "--read-only-port", Integer.toString(port), "--max-pods", Integer.toString(Math.max(110, pods)));
        long pid = agent.pid();
        try {
            PodStartupBench.waitFor(() -> PodStartupBench.log(dir).contains("jkubelet started"), Duration.ofSeconds(30), "agent start");
            ProbesBench.writePods(manifests, pods, false);
            PodStartupBench.waitFor(() -> ProbesBench.allReady(port, pods), Duration.ofMinutes(10), pods + " pods ready");
            // Let the stats provider take its samples and the agent settle.
            Thread.sleep(20_000);
            ProbesBench.Sample idle = ProbesBench.sample(pid, 10);
            System.out.printf("%d pods, %d connections, %d s per path; agent idle: %.1f MiB RSS, %.4f cores%n%n", pods,
                    connections, seconds, idle.rssMiB(), idle.cores());
            System.out.printf("| path | bytes | requests/s | p50 (ms) | p90 (ms) | p99 (ms) | agent RSS (MiB) | agent CPU (cores) |%n"
                    + "|---|---:|---:|---:|---:|---:|---:|---:|%n");
            for (String path : PATHS) {
                String url = "http://127.0.0.1:" + port + path;
                int status = statusOf(url);
                if (status != 200) {
                    System.out.printf("| %s | not served (%d) | | | | | | |%n", path, status);
                    continue;
                }
                int bytes = ProbesBench.get(port, path).getBytes(StandardCharsets.UTF_8).length;
                long t0 = ProbesBench.cpuTicks(pid);
                long n0 = System.nanoTime();
                String out = wrk(url, seconds, connections);
                double wall = (System.nanoTime() - n0) / 1e9;
                double cores = (ProbesBench.cpuTicks(pid) - t0) / (double) ProbesBench.HZ / wall;
                double rss = ProbesBench.sample(pid, 0).rssMiB();
                System.out.printf("| %s | %d | %.0f | %.2f | %.2f | %.2f | %.1f | %.3f |%n", path, bytes,
                        number(out, "Requests/sec:\\s+([\\d.]+)"), millis(out, "50%"), millis(out, "90%"), millis(out, "99%"),
                        rss, cores);
            }
        } finally {
            agent.destroy();
            agent.waitFor(60, TimeUnit.SECONDS);
            PodStartupBench.removeNode(PodStartupBench.docker(), node);
        }
    }

    static int statusOf(String url) throws Exception {
        return ProbesBench.HTTP.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).build(),
                java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    static String wrk(String url, int seconds, int connections) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("wrk", "-t", "2", "-c", Integer.toString(connections), "-d", seconds + "s",
                "--latency", "--timeout", "10s", url));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(seconds + 60L, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("wrk failed on " + url + ":\n" + out);
        }
        if (out.contains("Non-2xx")) {
            throw new IllegalStateException("wrk saw error answers on " + url + ":\n" + out);
        }
        return out;
    }

    static double number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("no " + regex + " in wrk's output:\n" + text);
        }
        return Double.parseDouble(m.group(1));
    }

    /** wrk's latency distribution line, e.g. {@code 99%   12.34ms}, in milliseconds. */
    static double millis(String text, String percentile) {
        Matcher m = Pattern.compile("^\\s+" + Pattern.quote(percentile) + "\\s+([\\d.]+)(us|ms|s)\\s*$", Pattern.MULTILINE)
                .matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("no " + percentile + " latency in wrk's output:\n" + text);
        }
        double v = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "us" -> v / 1000;
            case "s" -> v * 1000;
            default -> v;
        };
    }
}
