package io.jkubelet.server;

import io.fabric8.kubernetes.api.model.Pod;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** A settable {@link KubeletView} for tests. */
final class FakeKubeletView implements KubeletView {
    final AtomicReference<List<Pod>> pods = new AtomicReference<>(List.of());
    final AtomicReference<List<Pod>> running = new AtomicReference<>(List.of());
    final AtomicReference<Exception> runtimeError = new AtomicReference<>();
    final PrometheusRegistry probeMetrics = new PrometheusRegistry();
    final AtomicReference<io.jkubelet.core.stats.StatsSnapshot> stats = new AtomicReference<>();
    final AtomicReference<PrometheusRegistry> kubeletMetrics = new AtomicReference<>(new PrometheusRegistry());

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
}
