package io.jkubelet.core.metrics;

import io.jkubelet.core.cm.PinningMetrics;
import io.jkubelet.core.cm.devicemanager.DevicePluginMetrics;
import io.jkubelet.core.cm.topologymanager.AdmissionMetrics;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.time.Duration;

/**
 * The resource managers' metrics on {@code /metrics}, as upstream v1.30's {@code pkg/kubelet/metrics/metrics.go}
 * defines them (names, HELP texts, labels, buckets; all {@code ALPHA}). Upstream registers them whatever the managers'
 * policies, so an unlabelled counter shows 0 on a node whose CPU manager has the {@code none} policy. The alignment
 * metrics of later releases ({@code kubelet_container_aligned_compute_resources_*},
 * {@code kubelet_cpu_manager_exclusive_cpu_allocation_count} and the like) are not v1.30's and are not served.
 * Thread-safe.
 */
public final class ResourceManagerMetrics {
    /** Upstream's {@code ExponentialBuckets(.05, 2, 15)}, in milliseconds. */
    static final double[] ADMISSION_DURATION_MS_BUCKETS = KubeletMetrics.exponential(.05, 2, 15);

    private final Pinning cpuManagerPinning;
    private final Pinning memoryManagerPinning;
    private final Admission topologyManagerAdmission;
    private final DevicePlugins devicePlugins;

    /**
     * @param memoryManager whether the {@code MemoryManager} gate is on: upstream registers the memory manager's
     *     metrics only then; with it off they are counted nowhere and not shown
     */
    ResourceManagerMetrics(PrometheusRegistry registry, boolean memoryManager) {
        cpuManagerPinning = new Pinning(
                KubeletMetrics.counter(registry, "kubelet_cpu_manager_pinning_requests_total",
                        "The number of cpu core allocations which required pinning."),
                KubeletMetrics.counter(registry, "kubelet_cpu_manager_pinning_errors_total",
                        "The number of cpu core allocations which required pinning failed."));
        PrometheusRegistry memoryRegistry = memoryManager ? registry : new PrometheusRegistry();
        memoryManagerPinning = new Pinning(
                KubeletMetrics.counter(memoryRegistry, "kubelet_memory_manager_pinning_requests_total",
                        "The number of memory pages allocations which required pinning."),
                KubeletMetrics.counter(memoryRegistry, "kubelet_memory_manager_pinning_errors_total",
                        "The number of memory pages allocations which required pinning that failed."));
        topologyManagerAdmission = new Admission(
                KubeletMetrics.counter(registry, "kubelet_topology_manager_admission_requests_total",
                        "The number of admission requests where resources have to be aligned."),
                KubeletMetrics.counter(registry, "kubelet_topology_manager_admission_errors_total",
                        "The number of admission request failures where resources could not be aligned."),
                KubeletMetrics.histogram(registry, "kubelet_topology_manager_admission_duration_ms",
                        "Duration in milliseconds to serve a pod admission request.", ADMISSION_DURATION_MS_BUCKETS));
        devicePlugins = new DevicePlugins(
                KubeletMetrics.counter(registry, "kubelet_device_plugin_registration_total",
                        "Cumulative number of device plugin registrations. Broken down by resource name.", "resource_name"),
                KubeletMetrics.histogram(registry, "kubelet_device_plugin_alloc_duration_seconds",
                        "Duration in seconds to serve a device plugin Allocation request. Broken down by resource name.",
                        KubeletMetrics.DEF_BUCKETS, "resource_name"));
    }

    /** {@code kubelet_cpu_manager_pinning_requests_total} and {@code _errors_total}: the {@code static} policy's. */
    public PinningMetrics cpuManagerPinning() {
        return cpuManagerPinning;
    }

    /** {@code kubelet_memory_manager_pinning_requests_total} and {@code _errors_total}: the {@code Static} policy's. */
    public PinningMetrics memoryManagerPinning() {
        return memoryManagerPinning;
    }

    /** {@code kubelet_topology_manager_admission_requests_total}, {@code _errors_total} and {@code _duration_ms}. */
    public AdmissionMetrics topologyManagerAdmission() {
        return topologyManagerAdmission;
    }

    /** {@code kubelet_device_plugin_registration_total} and {@code kubelet_device_plugin_alloc_duration_seconds}. */
    public DevicePluginMetrics devicePlugins() {
        return devicePlugins;
    }

    private record Pinning(Counter requests, Counter errors) implements PinningMetrics {
        @Override
        public void requested() {
            requests.inc();
        }

        @Override
        public void failed() {
            errors.inc();
        }
    }

    private record Admission(Counter requests, Counter errors, Histogram duration) implements AdmissionMetrics {
        @Override
        public void requested() {
            requests.inc();
        }

        @Override
        public void failed() {
            errors.inc();
        }

        /** Whole milliseconds, as upstream observes {@code time.Since(start).Milliseconds()}. */
        @Override
        public void took(Duration took) {
            duration.observe(took.toMillis());
        }
    }

    private record DevicePlugins(Counter registrations, Histogram allocationDuration) implements DevicePluginMetrics {
        @Override
        public void registrationRequested(String resourceName) {
            registrations.labelValues(resourceName).inc();
        }

        @Override
        public void allocationTook(String resourceName, Duration took) {
            allocationDuration.labelValues(resourceName).observe(KubeletMetrics.seconds(took));
        }
    }
}
