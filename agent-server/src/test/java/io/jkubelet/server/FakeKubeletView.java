package io.jkubelet.server;

import io.fabric8.kubernetes.api.model.Pod;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/** A settable {@link KubeletView} for tests. */
final class FakeKubeletView implements KubeletView {
    final AtomicReference<List<Pod>> pods = new AtomicReference<>(List.of());
    final AtomicReference<List<Pod>> running = new AtomicReference<>(List.of());
    final AtomicReference<Exception> runtimeError = new AtomicReference<>();
    final PrometheusRegistry probeMetrics = new PrometheusRegistry();
    final io.jkubelet.server.healthz.HealthcheckSlis slis = new io.jkubelet.server.healthz.HealthcheckSlis();

    @Override
    public io.jkubelet.server.healthz.HealthcheckSlis healthcheckSlis() {
        return slis;
    }
    final AtomicReference<io.jkubelet.core.stats.StatsSnapshot> stats = new AtomicReference<>();
    final AtomicReference<io.fabric8.kubernetes.api.model.Node> node = new AtomicReference<>();
    final AtomicReference<io.jkubelet.core.timeline.PodTimelines> timelines = new AtomicReference<>();
    final AtomicReference<io.jkubelet.core.stats.history.StatsHistory> history = new AtomicReference<>();
    final AtomicReference<PrometheusRegistry> kubeletMetrics = new AtomicReference<>(new PrometheusRegistry());
    /** Runtime containers by id (no scheme): log path and whether each runs. */
    final Map<String, ContainerLog> containers = new ConcurrentHashMap<>();
    /** What {@code runInContainer} does. */
    final AtomicReference<RunFunction> run = new AtomicReference<>((ns, pod, uid, c, cmd) -> new byte[0]);

    @FunctionalInterface
    interface RunFunction {
        byte[] run(String namespace, String pod, String uid, String container, List<String> command) throws Exception;
    }

    @Override
    public List<Pod> pods() {
        return pods.get();
    }

    @Override
    public List<Pod> runningPods() throws Exception {
        Exception e = runtimeError.get();
        if (e != null) {
            throw e;
        }
        return running.get();
    }

    @Override
    public PrometheusRegistry probeMetrics() {
        return probeMetrics;
    }

    @Override
    public java.util.Optional<io.jkubelet.core.stats.StatsSnapshot> stats() {
        return java.util.Optional.ofNullable(stats.get());
    }

    @Override
    public PrometheusRegistry kubeletMetrics() {
        return kubeletMetrics.get();
    }

    @Override
    public Optional<Pod> podByName(String namespace, String name) {
        return pods.get().stream()
                .filter(p -> namespace.equals(p.getMetadata().getNamespace()) && name.equals(p.getMetadata().getName()))
                .findFirst();
    }

    @Override
    public ContainerLog containerLog(String containerId) throws Exception {
        ContainerLog c = containers.get(containerId);
        if (c == null) {
            throw new IllegalStateException("no such container: " + containerId);
        }
        return c;
    }

    @Override
    public byte[] runInContainer(String namespace, String podName, String podUid, String containerName, List<String> command)
            throws Exception {
        return run.get().run(namespace, podName, podUid, containerName, command);
    }

    @Override
    public Optional<io.jkubelet.core.stats.history.StatsHistory> statsHistory() {
        return Optional.ofNullable(history.get());
    }

    @Override
    public Optional<io.jkubelet.core.timeline.PodTimeline> podTimeline(String namespace, String name) {
        return timelines.get() == null ? Optional.empty() : timelines.get().find(namespace, name);
    }

    @Override
    public Optional<io.fabric8.kubernetes.api.model.Node> node() {
        return Optional.ofNullable(node.get());
    }
}
