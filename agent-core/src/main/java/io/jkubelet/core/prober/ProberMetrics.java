package io.jkubelet.core.prober;

import io.fabric8.kubernetes.api.model.Pod;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The probe metrics the kubelet serves on {@code /metrics/probes}, with upstream's names, labels, HELP texts
 * and buckets ({@code pkg/kubelet/prober/prober_manager.go}: {@code ProberResults}, {@code ProberDuration}).
 * The {@code [ALPHA] } prefix is what Kubernetes' component-base adds to the HELP of an alpha metric.
 * Thread-safe. Registers both metrics in the given registry once: one instance per registry.
 */
public final class ProberMetrics {
    /** {@code result} label values of {@code prober_probe_total}. */
    static final String RESULT_SUCCESSFUL = "successful";
    static final String RESULT_FAILED = "failed";
    static final String RESULT_UNKNOWN = "unknown";

    /** Prometheus' default buckets ({@code prometheus.DefBuckets}), which upstream's histogram uses. */
    private static final double[] DEFAULT_BUCKETS = {.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10};

    private final Counter probeTotal;
    private final Histogram probeDuration;

    public ProberMetrics(PrometheusRegistry registry) {
        this.probeTotal = Counter.builder()
                .name("prober_probe_total")
                .help("[ALPHA] Cumulative number of a liveness, readiness or startup probe for a container by result.")
                .labelNames("probe_type", "result", "container", "pod", "namespace", "pod_uid")
                .withoutExemplars()
                .register(registry);
        this.probeDuration = Histogram.builder()
                .name("prober_probe_duration_seconds")
                .help("[ALPHA] Duration in seconds for a probe response.")
                .labelNames("probe_type", "container", "pod", "namespace")
                // Explicit bounds, so that no prometheus.properties file can change them; classic only, as upstream.
                .classicOnly()
                .classicUpperBounds(DEFAULT_BUCKETS)
                .withoutExemplars()
                .register(registry);
    }

    /** The series of one probe worker. Series appear on first use, as upstream's do. */
    Series series(ProbeType type, Pod pod, String containerName) {
        return new Series(type.metricLabel(), containerName, pod.getMetadata().getName(),
                pod.getMetadata().getNamespace(), pod.getMetadata().getUid());
    }

    final class Series {
        private final String probeType;
        private final String container;
        private final String pod;
        private final String namespace;
        private final String podUid;

        private Series(String probeType, String container, String pod, String namespace, String podUid) {
            this.probeType = probeType;
            this.container = container;
            this.pod = nullToEmpty(pod);
            this.namespace = nullToEmpty(namespace);
            this.podUid = nullToEmpty(podUid);
        }

        void countResult(String result) {
            probeTotal.labelValues(probeType, result, container, pod, namespace, podUid).inc();
        }

        void observeDuration(double seconds) {
            probeDuration.labelValues(probeType, container, pod, namespace).observe(seconds);
        }

        /** Deletes every series of this worker (upstream does so when the worker exits). Idempotent. */
        void delete() {
            for (String result : new String[] {RESULT_SUCCESSFUL, RESULT_FAILED, RESULT_UNKNOWN}) {
                probeTotal.remove(probeType, result, container, pod, namespace, podUid);
            }
            probeDuration.remove(probeType, container, pod, namespace);
        }
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
