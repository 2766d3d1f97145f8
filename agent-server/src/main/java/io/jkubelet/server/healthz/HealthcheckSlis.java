package io.jkubelet.server.healthz;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * component-base's health check SLIs ({@code metrics/prometheus/slis}, served at {@code /metrics/slis} while the
 * {@code ComponentSLIs} gate is on): the result of each check at its last run through a health endpoint
 * ({@code kubernetes_healthcheck}, 1 or 0) and the count of results ({@code kubernetes_healthchecks_total}), by check
 * name and endpoint type ({@code healthz}). One instance is shared by every server of the agent, as upstream's
 * registry is the process's. Thread-safe.
 */
public final class HealthcheckSlis {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Gauge healthcheck = Gauge.builder().name("kubernetes_healthcheck")
            .help("[STABLE] This metric records the result of a single healthcheck.")
            .labelNames("name", "type").withoutExemplars().register(registry);
    private final Counter healthchecks = Counter.builder().name("kubernetes_healthchecks_total")
            .help("[STABLE] This metric records the results of all healthcheck.")
            .labelNames("name", "type", "status").withoutExemplars().register(registry);

    /** Records one run of check {@code name} through the {@code type} endpoint. */
    public void observe(String name, String type, boolean success) {
        healthcheck.labelValues(name, type).set(success ? 1 : 0);
        healthchecks.labelValues(name, type, success ? "success" : "error").inc();
    }

    public PrometheusRegistry registry() {
        return registry;
    }
}
