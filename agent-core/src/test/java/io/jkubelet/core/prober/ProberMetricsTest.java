package io.jkubelet.core.prober;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.jkubelet.core.testing.FakeClock;
import io.jkubelet.core.testing.Pods;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static io.jkubelet.core.prober.ProbeFixtures.*;
import static io.jkubelet.core.probe.ProbeResult.FAILURE;
import static io.jkubelet.core.probe.ProbeResult.SUCCESS;
import static io.jkubelet.core.probe.ProbeResult.UNKNOWN;
import static io.jkubelet.core.probe.ProbeResult.WARNING;
import static org.assertj.core.api.Assertions.assertThat;

/** What {@code /metrics/probes} shows, scraped in the Prometheus text format. */
class ProberMetricsTest {
    private final FakeClock clock = new FakeClock();
    private final ScriptedProber prober = new ScriptedProber();

    {
        prober.duringProbe = () -> clock.advance(Duration.ofMillis(30)); // every probe takes 30 ms
    }

    private final Map<String, PodStatus> statuses = new HashMap<>();
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final ProbeManager manager = new ProbeManager(prober, uid -> Optional.ofNullable(statuses.get(uid)),
            ProbeResultListener.NONE, new ProberMetrics(registry), clock, new ManualTicker(), new QueuedRunner(),
            () -> 0.0);

    private String scrape() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, registry.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void countsResultsAndTimesSuccessfulProbesWithUpstreamsNamesLabelsAndBuckets() throws IOException {
        Pod pod = Pods.pod("web", withProbes("app", probe(10, 0, 1, 5), null, null));
        statuses.put("uid-web", running(running("app", "docker://a1", clock.instant(), true)));
        manager.addPod(pod);
        ProbeWorker w = manager.worker("uid-web", "app", ProbeType.LIVENESS).orElseThrow();
        prober.answer("app", ProbeType.LIVENESS, SUCCESS, WARNING, FAILURE, UNKNOWN);

        w.doProbe(); w.doProbe(); w.doProbe(); w.doProbe();

        String labels = "container=\"app\",namespace=\"default\",pod=\"web\",pod_uid=\"uid-web\",probe_type=\"Liveness\"";
        String durationLabels = "container=\"app\",namespace=\"default\",pod=\"web\",probe_type=\"Liveness\"";
        String text = scrape();
        assertThat(text.lines()).containsSubsequence(
                "# HELP prober_probe_total [ALPHA] Cumulative number of a liveness, readiness or startup probe for a container by result.",
                "# TYPE prober_probe_total counter",
                "prober_probe_total{" + labels + ",result=\"failed\"} 1.0",
                "prober_probe_total{" + labels + ",result=\"successful\"} 2.0");
        assertThat(text.lines()).containsSubsequence(
                "# HELP prober_probe_duration_seconds [ALPHA] Duration in seconds for a probe response.",
                "# TYPE prober_probe_duration_seconds histogram",
                "prober_probe_duration_seconds_bucket{" + durationLabels + ",le=\"0.005\"} 0",
                "prober_probe_duration_seconds_bucket{" + durationLabels + ",le=\"0.01\"} 0",
                "prober_probe_duration_seconds_bucket{" + durationLabels + ",le=\"0.025\"} 0",
                "prober_probe_duration_seconds_bucket{" + durationLabels + ",le=\"0.05\"} 2",
                "prober_probe_duration_seconds_bucket{" + durationLabels + ",le=\"0.1\"} 2",
                "prober_probe_duration_seconds_bucket{" + durationLabels + ",le=\"0.25\"} 2",
                "prober_probe_duration_seconds_bucket{" + durationLabels + ",le=\"0.5\"} 2",
                "prober_probe_duration_seconds_bucket{" + durationLabels + ",le=\"1.0\"} 2",
                "prober_probe_duration_seconds_bucket{" + durationLabels + ",le=\"2.5\"} 2",
                "prober_probe_duration_seconds_bucket{" + durationLabels + ",le=\"5.0\"} 2",
                "prober_probe_duration_seconds_bucket{" + durationLabels + ",le=\"10.0\"} 2",
                "prober_probe_duration_seconds_bucket{" + durationLabels + ",le=\"+Inf\"} 2",
                "prober_probe_duration_seconds_count{" + durationLabels + "} 2",
                "prober_probe_duration_seconds_sum{" + durationLabels + "} 0.06");
        assertThat(text).as("an errored probe is not counted").doesNotContain("result=\"unknown\"");
    }

    @Test
    void noSeriesBeforeTheFirstProbeAndNoneAfterTheWorkerLeaves() throws IOException {
        Pod pod = Pods.pod("web", withProbes("app", null, probe(), null));
        statuses.put("uid-web", running(running("app", "docker://a1", clock.instant(), true)));
        manager.addPod(pod);
        assertThat(scrape()).doesNotContain("pod=\"web\"");

        manager.worker("uid-web", "app", ProbeType.READINESS).orElseThrow().doProbe();
        assertThat(scrape()).contains("result=\"successful\"");

        manager.removePod(pod);
        assertThat(scrape()).doesNotContain("pod=\"web\"");
    }
}
