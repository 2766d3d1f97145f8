package io.jkubelet.cmd;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.pleg.RunningPod;
import io.jkubelet.core.kubelet.Kubelet;
import io.jkubelet.core.stats.StatsSnapshot;
import io.jkubelet.core.stats.history.StatsHistory;
import io.jkubelet.core.timeline.PodTimeline;
import io.jkubelet.core.timeline.PodTimelines;
import io.jkubelet.server.KubeletView;
import io.jkubelet.server.streaming.ContainerStreaming;
import io.jkubelet.server.healthz.HealthcheckSlis;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the HTTP servers read of a running node: its pods and their containers (through {@link ContainerAccess}),
 * the stats provider's latest snapshot, the kubelet's and the probers' metrics, and streaming into containers.
 * Public so that end-to-end tests put the servers' handlers over a real agent's pods and the real runtime.
 */
public final class NodeView implements KubeletView {
    private final ContainerAccess containers;
    private final ContainerStreaming streaming;
    private final PrometheusRegistry probeMetrics;
    private final HealthcheckSlis healthcheckSlis;
    private final PrometheusRegistry kubeletMetrics;
    private final Supplier<Optional<StatsSnapshot>> stats;
    private final Diagnostics diagnostics;

    /**
     * What the dashboard reads beside the pods and the latest stats round.
     *
     * @param history the usage of the last 15 minutes; null where none is kept
     * @param timelines what happened to each pod; null where none is kept
     * @param node the node as the dashboard shows it
     */
    public record Diagnostics(StatsHistory history, PodTimelines timelines, Supplier<Optional<Node>> node) {
        public static final Diagnostics NONE = new Diagnostics(null, null, Optional::empty);

        /** The kubelet's. */
        static Diagnostics of(Kubelet kubelet, Supplier<Optional<Node>> node) {
            return new Diagnostics(kubelet.views().statsHistory(), kubelet.views().timelines(), node);
        }
    }

    public NodeView(ContainerAccess containers, ContainerStreaming streaming, PrometheusRegistry probeMetrics,
                    PrometheusRegistry kubeletMetrics, Supplier<Optional<StatsSnapshot>> stats) {
        this(containers, streaming, probeMetrics, kubeletMetrics, stats, Diagnostics.NONE, new HealthcheckSlis());
    }

    public NodeView(ContainerAccess containers, ContainerStreaming streaming, PrometheusRegistry probeMetrics,
                    PrometheusRegistry kubeletMetrics, Supplier<Optional<StatsSnapshot>> stats, Diagnostics diagnostics,
                    HealthcheckSlis healthcheckSlis) {
        this.healthcheckSlis = healthcheckSlis;
        this.containers = containers;
        this.streaming = streaming;
        this.probeMetrics = probeMetrics;
        this.kubeletMetrics = kubeletMetrics;
        this.stats = stats;
        this.diagnostics = diagnostics;
    }

    /** Over the pods and the runtime alone: no stats, no metrics, streaming through the same runtime. */
    public static NodeView of(ContainerAccess containers) {
        return new NodeView(containers, new KubeletStreaming(containers), new PrometheusRegistry(),
                new PrometheusRegistry(), Optional::empty);
    }

    @Override
    public List<Pod> pods() {
        return containers.pods();
    }

    @Override
    public List<Pod> runningPods() {
        return containers.runningPods().stream().map(NodeView::toApiPod).flatMap(Optional::stream).toList();
    }

    @Override
    public HealthcheckSlis healthcheckSlis() {
        return healthcheckSlis;
    }

    @Override
    public PrometheusRegistry probeMetrics() {
        return probeMetrics;
    }

    @Override
    public Optional<StatsSnapshot> stats() {
        return stats.get();
    }

    @Override
    public Optional<StatsHistory> statsHistory() {
        return Optional.ofNullable(diagnostics.history());
    }

    @Override
    public Optional<Node> node() {
        return diagnostics.node().get();
    }

    @Override
    public Optional<PodTimeline> podTimeline(String namespace, String name) {
        return diagnostics.timelines() == null ? Optional.empty() : diagnostics.timelines().find(namespace, name);
    }

    @Override
    public PrometheusRegistry kubeletMetrics() {
        return kubeletMetrics;
    }

    @Override
    public Optional<Pod> podByName(String namespace, String name) {
        return containers.podByName(namespace, name);
    }

    @Override
    public ContainerLog containerLog(String containerId) {
        return containers.containerLog(containerId);
    }

    @Override
    public byte[] runInContainer(String namespace, String podName, String podUid, String containerName,
                                 List<String> command) {
        return containers.runInContainer(namespace, podName, containerName, command);
    }

    @Override
    public ContainerStreaming streaming() {
        return streaming;
    }

    /** A running pod as upstream's {@code ToAPIPod}: name, namespace, UID and its running containers. */
    static Optional<Pod> toApiPod(RunningPod rp) {
        List<RunningPod.Member> running = rp.members().stream().filter(m -> !m.sandbox() && m.running()).toList();
        boolean sandboxReady = rp.members().stream().anyMatch(m -> m.sandbox() && m.running());
        if (running.isEmpty() && !sandboxReady) {
            return Optional.empty();
        }
        return Optional.of(new PodBuilder().withNewMetadata().withName(rp.name()).withNamespace(rp.namespace())
                .withUid(rp.uid()).endMetadata().withNewSpec()
                .withContainers(running.stream().map(m -> new ContainerBuilder().withName(m.name()).withImage(m.image())
                        .build()).toList()).endSpec().build());
    }

}
