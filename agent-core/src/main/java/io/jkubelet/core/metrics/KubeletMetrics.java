package io.jkubelet.core.metrics;

import io.jkubelet.core.nodeshutdown.GracefulShutdownRecord;
import io.prometheus.metrics.core.metrics.Counter;
import io.jkubelet.core.metrics.collectors.VolumeStatsCollector;
import io.jkubelet.core.stats.StatsSnapshot;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The kubelet's own metrics on {@code /metrics}, with upstream's names, labels, HELP texts and buckets
 * ({@code pkg/kubelet/metrics/metrics.go}; the {@code [ALPHA] } prefix is what component-base adds to an alpha
 * metric's HELP). Each instance registers its metrics in its own registry. Thread-safe.
 */
public final class KubeletMetrics {
    /** Prometheus' {@code DefBuckets}. */
    static final double[] DEF_BUCKETS = {.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10};
    /** Upstream's {@code podStartupDurationBuckets}. */
    static final double[] POD_STARTUP_BUCKETS = {0.5, 1, 2, 3, 4, 5, 6, 8, 10, 20, 30, 45, 60, 120, 180, 240, 300, 360,
            480, 600, 900, 1200, 1800, 2700, 3600};
    /** Upstream's {@code ExponentialBuckets(.005, 2.5, 14)} for runtime operations. */
    static final double[] RUNTIME_OPERATION_BUCKETS = exponential(.005, 2.5, 14);

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Histogram podWorkerDuration;
    private final Histogram podStartDuration;
    private final Histogram plegRelistDuration;
    private final Histogram plegRelistInterval;
    private final Counter runtimeOperations;
    private final Counter runtimeOperationsErrors;
    private final Histogram runtimeOperationsDuration;
    private final Counter imageGarbageCollected;
    private final Gauge runningPods;
    private final Gauge runningContainers;
    private final ResourceManagerMetrics resourceManagers;

    /** The metrics of a kubelet whose {@code MemoryManager} gate is on (its default). */
    public KubeletMetrics(String nodeName) {
        this(nodeName, true);
    }

    /**
     * @param memoryManager whether the {@code MemoryManager} gate is on, without which upstream shows no memory
     *     manager metrics
     */
    public KubeletMetrics(String nodeName, boolean memoryManager) {
        podWorkerDuration = histogram("kubelet_pod_worker_duration_seconds",
                "Duration in seconds to sync a single pod. Broken down by operation type: create, update, or sync",
                DEF_BUCKETS, "operation_type");
        podStartDuration = histogram("kubelet_pod_start_duration_seconds",
                "Duration in seconds from kubelet seeing a pod for the first time to the pod starting to run",
                POD_STARTUP_BUCKETS);
        plegRelistDuration = histogram("kubelet_pleg_relist_duration_seconds",
                "Duration in seconds for relisting pods in PLEG.", DEF_BUCKETS);
        plegRelistInterval = histogram("kubelet_pleg_relist_interval_seconds",
                "Interval in seconds between relisting in PLEG.", DEF_BUCKETS);
        runtimeOperations = counter("kubelet_runtime_operations_total",
                "Cumulative number of runtime operations by operation type.", "operation_type");
        runtimeOperationsErrors = counter("kubelet_runtime_operations_errors_total",
                "Cumulative number of runtime operation errors by operation type.", "operation_type");
        runtimeOperationsDuration = histogram("kubelet_runtime_operations_duration_seconds",
                "Duration in seconds of runtime operations. Broken down by operation type.", RUNTIME_OPERATION_BUCKETS,
                "operation_type");
        imageGarbageCollected = counter("kubelet_image_garbage_collected_total",
                "Total number of images garbage collected by the kubelet, whether through disk usage or image age.",
                "reason");
        runningPods = Gauge.builder().name("kubelet_running_pods")
                .help("[ALPHA] Number of pods that have a running pod sandbox").withoutExemplars().register(registry);
        runningContainers = Gauge.builder().name("kubelet_running_containers")
                .help("[ALPHA] Number of containers currently running").labelNames("container_state")
                .withoutExemplars().register(registry);
        Gauge node = Gauge.builder().name("kubelet_node_name").help("[ALPHA] The node's name. The count is always 1.")
                .labelNames("node").withoutExemplars().register(registry);
        node.labelValues(nodeName).set(1);
        double start = ProcessHandle.current().info().startInstant().map(t -> t.toEpochMilli() / 1000.0)
                .orElse(System.currentTimeMillis() / 1000.0);
        GaugeWithCallback.builder().name("process_start_time_seconds")
                .help("[ALPHA] Start time of the process since unix epoch in seconds.")
                .callback(cb -> cb.call(start)).register(registry);
        resourceManagers = new ResourceManagerMetrics(registry, memoryManager);
    }

    /**
     * Registers {@code kubelet_graceful_shutdown_start_time_seconds} and {@code _end_time_seconds}, as upstream does
     * while {@code GracefulNodeShutdown} and {@code GracefulNodeShutdownBasedOnPodPriority} are on.
     */
    public GracefulShutdownRecord.Gauges registerGracefulShutdown() {
        Gauge start = Gauge.builder().name("kubelet_graceful_shutdown_start_time_seconds")
                .help("[ALPHA] Last graceful shutdown start time since unix epoch in seconds").withoutExemplars()
                .register(registry);
        Gauge end = Gauge.builder().name("kubelet_graceful_shutdown_end_time_seconds")
                .help("[ALPHA] Last graceful shutdown end time since unix epoch in seconds").withoutExemplars()
                .register(registry);
        return new GracefulShutdownRecord.Gauges() {
            @Override
            public void startTime(double secondsSinceEpoch) {
                start.set(secondsSinceEpoch);
            }

            @Override
            public void endTime(double secondsSinceEpoch) {
                end.set(secondsSinceEpoch);
            }
        };
    }

    /** Upstream's volume stats collector: {@code kubelet_volume_stats_*} of each claim, from the latest stats round. */
    public void registerVolumeStats(Supplier<Optional<StatsSnapshot>> latest) {
        registry.register(new VolumeStatsCollector(latest));
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    /** The CPU, memory, topology and device managers' metrics, registered whatever the managers' policies. */
    public ResourceManagerMetrics resourceManagers() {
        return resourceManagers;
    }

    /** One pod worker sync ({@code create}, {@code update}, {@code sync} or {@code kill}). */
    public void observePodWorker(String operationType, Duration took) {
        podWorkerDuration.labelValues(operationType).observe(seconds(took));
    }

    /** A pod ran for the first time, {@code took} after the kubelet first saw it. */
    public void observePodStart(Duration took) {
        podStartDuration.observe(seconds(took));
    }

    /**
     * One PLEG relist: how long it took, the time since the previous one started ({@code null} for the
     * first), and what it saw: ready sandboxes and containers by state ({@code created}, {@code running},
     * {@code exited}, {@code unknown}).
     */
    public void observeRelist(Duration took, Duration sincePrevious, int readySandboxes, Map<String, Integer> containersByState) {
        plegRelistDuration.observe(seconds(took));
        if (sincePrevious != null) {
            plegRelistInterval.observe(seconds(sincePrevious));
        }
        runningPods.set(readySandboxes);
        // As upstream, a state no longer seen keeps its last value.
        containersByState.forEach((state, n) -> runningContainers.labelValues(state).set(n));
    }

    /** One runtime call; {@code failed} also counts it as an error. */
    public void observeRuntimeOperation(String operationType, Duration took, boolean failed) {
        runtimeOperations.labelValues(operationType).inc();
        runtimeOperationsDuration.labelValues(operationType).observe(seconds(took));
        if (failed) {
            runtimeOperationsErrors.labelValues(operationType).inc();
        }
    }

    /** Image GC removed an image, for {@code reason} {@code space} or {@code age}. */
    public void observeImageCollected(String reason) {
        imageGarbageCollected.labelValues(reason).inc();
    }

    private Histogram histogram(String name, String help, double[] buckets, String... labels) {
        return histogram(registry, name, help, buckets, labels);
    }

    private Counter counter(String name, String help, String... labels) {
        return counter(registry, name, help, labels);
    }

    /** An {@code ALPHA} histogram with classic buckets only, as component-base registers it. */
    static Histogram histogram(PrometheusRegistry registry, String name, String help, double[] buckets, String... labels) {
        return Histogram.builder().name(name).help("[ALPHA] " + help).labelNames(labels).classicOnly()
                .classicUpperBounds(buckets).withoutExemplars().register(registry);
    }

    /** An {@code ALPHA} counter. */
    static Counter counter(PrometheusRegistry registry, String name, String help, String... labels) {
        return Counter.builder().name(name).help("[ALPHA] " + help).labelNames(labels).withoutExemplars().register(registry);
    }

    static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    static double[] exponential(double start, double factor, int count) {
        double[] b = new double[count];
        double v = start;
        for (int i = 0; i < count; i++) {
            b[i] = v;
            v *= factor;
        }
        return b;
    }
}
