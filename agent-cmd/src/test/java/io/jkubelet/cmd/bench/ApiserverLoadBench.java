package io.jkubelet.cmd.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jkubelet.cmd.e2e.apiserver.MockApiserverProcess;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The load a cluster node puts on the apiserver: the agent (through the launcher, with {@code --kubeconfig}) against
 * the mock apiserver process, {@code pods} pods bound to the node (110 by default, the kubelet's maxPods), and once
 * they all run, for {@code seconds} of steady state, the requests per second the agent sends, by verb and resource
 * (from the mock's own counts). Also the status latency: from a pod's app container start (Docker's start event)
 * to the apiserver receiving the status write that makes the pod Running.
 *
 * <p>Usage: {@code ApiserverLoadBench [pods] [seconds]}; prints Markdown tables.
 */
public final class ApiserverLoadBench {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    static final String IMAGE = "jkubelet/busybox:1.0";

    public static void main(String[] args) throws Exception {
        String launcher = System.getProperty("jkubelet.launcher", "bin/jkubelet");
        int pods = args.length > 0 ? Integer.parseInt(args[0]) : 110;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        if (pods < 1 || seconds < 1) {
            throw new IllegalArgumentException("usage: ApiserverLoadBench [pods >= 1] [seconds >= 1], got " + String.join(" ", args));
        }
        Path dir = Files.createTempDirectory("jk-apiserver-load");
        String node = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        MockApiserverProcess apiserver = new MockApiserverProcess(dir.resolve("apiserver")).start();
        Process agent = null;
        Path agentDir = Files.createDirectories(dir.resolve("node"));
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl(apiserver.url()).withNamespace("default").withRequestTimeout(30_000).build()).build()) {
            agent = PodStartupBench.startAgent(launcher, node, agentDir, Files.createDirectories(agentDir.resolve("manifests")),
                    "--kubeconfig", apiserver.kubeconfig.toString(), "--read-only-port", "0",
                    "--max-pods", Integer.toString(Math.max(110, pods)));
            Process running = agent;
            System.err.printf("agent %s (log %s), mock apiserver %s (log %s)%n", node, agentDir.resolve("agent.log"),
                    apiserver.url(), apiserver.log);
            PodStartupBench.waitFor(() -> {
                if (!running.isAlive()) {
                    throw new IllegalStateException("the agent exited with " + running.exitValue() + ":\n" + PodStartupBench.log(agentDir));
                }
                return client.nodes().withName(node).get() != null;
            }, Duration.ofSeconds(90), "node " + node + " to register (is node registration merged?)");

            Map<String, Long> beforePods = counts(apiserver);
            long since = Instant.now().getEpochSecond() - 1;
            for (int i = 0; i < pods; i++) {
                client.pods().resource(pod(String.format("load-%03d", i), node)).create();
            }
            System.err.printf("created %d pods bound to %s; waiting for them to run%n", pods, node);
            PodStartupBench.waitFor(() -> {
                if (!running.isAlive()) {
                    throw new IllegalStateException("the agent exited with " + running.exitValue());
                }
                return runningPods(client, node) >= pods;
            }, Duration.ofMinutes(10), pods + " pods Running in the apiserver (are the pod source and the status manager merged?)");
            long until = Instant.now().getEpochSecond() + 1;
            Map<String, Long> atRunning = counts(apiserver);

            Map<String, Long> starts = containerStarts(node, since, until);
            JsonNode runningAt = JSON.readTree(apiserver.get("/mock/pods-running"));
            List<Double> latencies = new ArrayList<>();
            for (Map.Entry<String, Long> start : starts.entrySet()) {
                JsonNode r = runningAt.get("default/" + start.getKey());
                if (r != null) {
                    latencies.add((r.get("receivedNanos").asLong() - start.getValue()) / 1e6);
                }
            }

            // Steady state: let the start-up writes drain, then count.
            Thread.sleep(10_000);
            Map<String, Long> before = counts(apiserver);
            long t0 = System.nanoTime();
            // The agent's own footprint over the same window (RSS at its end, CPU over it).
            ProbesBench.Sample footprint = ProbesBench.sample(agent.pid(), seconds);
            Map<String, Long> after = counts(apiserver);
            double elapsed = (System.nanoTime() - t0) / 1e9;
            if (!running.isAlive()) {
                throw new IllegalStateException("the agent exited during the measurement");
            }

            System.out.printf("### apiserver load: %d pods on one node, %d s steady state%n%n", pods, seconds);
            System.out.println("| verb resource | requests | per second |");
            System.out.println("|---|---:|---:|");
            double total = 0;
            for (Map.Entry<String, Long> e : after.entrySet()) {
                long n = e.getValue() - before.getOrDefault(e.getKey(), 0L);
                if (n > 0) {
                    System.out.printf("| %s | %d | %.2f |%n", e.getKey(), n, n / elapsed);
                    total += n;
                }
            }
            System.out.printf("| **total** | %d | %.2f |%n%n", (long) total, total / elapsed);
            System.out.printf("Agent meanwhile: %.0f MiB RSS, %.4f cores%n%n", footprint.rssMiB(), footprint.cores());
            // Status writes and events come only from the agent (the bench itself creates and lists pods).
            System.out.printf("Start-up, from creating the pods until all are Running in the apiserver: the agent's status"
                    + " writes and events%n%n| verb resource | requests |%n|---|---:|%n");
            for (Map.Entry<String, Long> e : atRunning.entrySet()) {
                long n = e.getValue() - beforePods.getOrDefault(e.getKey(), 0L);
                if (n > 0 && (e.getKey().contains("/status") || e.getKey().contains("events"))) {
                    System.out.printf("| %s | %d |%n", e.getKey(), n);
                }
            }
            System.out.println();
            System.out.printf("Status latency, app container start (Docker event) -> apiserver receives the Running status, %d of %d pods:%n%n",
                    latencies.size(), pods);
            System.out.println("| p50 ms | p90 ms | p99 ms | max ms |");
            System.out.println("|---:|---:|---:|---:|");
            latencies.sort(Double::compare);
            if (latencies.isEmpty()) {
                System.out.println("| - | - | - | - |");
            } else {
                System.out.printf("| %.0f | %.0f | %.0f | %.0f |%n", pct(latencies, 50), pct(latencies, 90), pct(latencies, 99),
                        latencies.getLast());
            }
        } finally {
            if (agent != null) {
                agent.destroy();
                if (!agent.waitFor(30, TimeUnit.SECONDS)) {
                    agent.destroyForcibly();
                }
            }
            removeContainers(node);
            apiserver.stop();
        }
    }

    static Pod pod(String name, String node) {
        return new PodBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withNodeName(node).withTerminationGracePeriodSeconds(5L)
                .addNewContainer().withName("app").withImage(IMAGE).withImagePullPolicy("Never")
                .withCommand("sh", "-c", PodStartupBench.APP_CMD).endContainer()
                .endSpec().build();
    }

    static long runningPods(KubernetesClient client, String node) {
        return client.pods().inNamespace("default").withField("spec.nodeName", node).list().getItems().stream()
                .filter(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase())).count();
    }

    static Map<String, Long> counts(MockApiserverProcess apiserver) {
        Map<String, Long> counts = new TreeMap<>();
        JsonNode node = JSON.readTree(apiserver.get("/mock/requests"));
        for (String k : node.propertyNames()) {
            counts.put(k, node.get(k).asLong());
        }
        return counts;
    }

    /** Pod name -> epoch nanoseconds of its app container's Docker start event (the first, if it restarted). */
    static Map<String, Long> containerStarts(String node, long since, long until) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("docker", "events", "--since", Long.toString(since), "--until", Long.toString(until),
                "--filter", "type=container", "--filter", "event=start", "--filter", "label=io.jkubelet.node.name=" + node,
                "--filter", "label=io.kubernetes.container.name=app",
                "--format", "{{.TimeNano}} {{index .Actor.Attributes \"io.kubernetes.pod.name\"}}").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        Map<String, Long> starts = new HashMap<>();
        for (String line : out.split("\n")) {
            String[] f = line.strip().split(" ");
            if (f.length == 2 && f[0].matches("\\d+")) {
                starts.merge(f[1], Long.parseLong(f[0]), Math::min);
            }
        }
        return starts;
    }

    /** Removes the node's containers, then the cgroups its agent made. */
    static void removeContainers(String node) throws IOException, InterruptedException {
        try {
            removeDockerContainers(node);
        } finally {
            PodStartupBench.removeCgroups(node);
        }
    }

    private static void removeDockerContainers(String node) throws IOException, InterruptedException {
        Process ps = new ProcessBuilder("docker", "ps", "-aq", "--filter", "label=io.jkubelet.node.name=" + node).start();
        String ids = new String(ps.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        ps.waitFor(60, TimeUnit.SECONDS);
        if (!ids.isEmpty()) {
            List<String> cmd = new ArrayList<>(List.of("docker", "rm", "-f"));
            cmd.addAll(List.of(ids.split("\\s+")));
            new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(120, TimeUnit.SECONDS);
        }
    }

    static double pct(List<Double> sorted, int p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }
}
