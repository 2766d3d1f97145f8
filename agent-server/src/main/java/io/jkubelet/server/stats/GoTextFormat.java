package io.jkubelet.server.stats;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes a registry's counters, gauges and classic histograms in the text format 0.0.4 as Go's
 * {@code client_golang} writes them, which is what the kubelet's {@code /metrics} shows: families sorted by
 * name, series by label values, numbers as {@code strconv.FormatFloat(v, 'g', -1, 64)} ({@code 1}, not
 * {@code 1.0}; {@code le="2.5"}, {@code le="10"}), cumulative buckets then {@code _sum} and {@code _count}.
 * Other metric types are left out. Stateless and thread-safe.
 */
public final class GoTextFormat {
    private GoTextFormat() {}

    public static byte[] write(MetricSnapshots snapshots) {
        List<MetricSnapshot> sorted = new ArrayList<>();
        snapshots.forEach(sorted::add);
        sorted.sort(Comparator.comparing(GoTextFormat::name));
        StringBuilder out = new StringBuilder(16384);
        for (MetricSnapshot s : sorted) {
            String type = switch (s) {
                case CounterSnapshot c -> "counter";
                case GaugeSnapshot g -> "gauge";
                case HistogramSnapshot h when !h.isGaugeHistogram() -> "histogram";
                default -> null;
            };
            if (type == null || s.getDataPoints().isEmpty()) {
                continue;
            }
            String name = name(s);
            out.append("# HELP ").append(name).append(' ')
                    .append(s.getMetadata().getHelp() == null ? "" : s.getMetadata().getHelp().replace("\\", "\\\\").replace("\n", "\\n"))
                    .append('\n');
            out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
            List<? extends DataPointSnapshot> points = new ArrayList<>(s.getDataPoints());
            points.sort(Comparator.comparing(p -> labelValues(p.getLabels())));
            for (DataPointSnapshot p : points) {
                switch (p) {
                    case CounterSnapshot.CounterDataPointSnapshot c -> line(out, name, c.getLabels(), null, c.getValue());
                    case GaugeSnapshot.GaugeDataPointSnapshot g -> line(out, name, g.getLabels(), null, g.getValue());
                    case HistogramSnapshot.HistogramDataPointSnapshot h -> histogram(out, name, h);
                    default -> { }
                }
            }
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void histogram(StringBuilder out, String name, HistogramSnapshot.HistogramDataPointSnapshot h) {
        ClassicHistogramBuckets buckets = h.getClassicBuckets();
        long cumulative = 0;
        for (int i = 0; i < buckets.size(); i++) {
            cumulative += buckets.getCount(i);
            line(out, name + "_bucket", h.getLabels(), PromText.goFloat(buckets.getUpperBound(i)), cumulative);
        }
        line(out, name + "_sum", h.getLabels(), null, h.hasSum() ? h.getSum() : 0);
        line(out, name + "_count", h.getLabels(), null, h.hasCount() ? h.getCount() : cumulative);
    }

    private static void line(StringBuilder out, String name, Labels labels, String le, double value) {
        out.append(name);
        if (!labels.isEmpty() || le != null) {
            out.append('{');
            for (int i = 0; i < labels.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(labels.getPrometheusName(i)).append("=\"").append(escape(labels.getValue(i))).append('"');
            }
            if (le != null) {
                out.append(labels.isEmpty() ? "" : ",").append("le=\"").append(le).append('"');
            }
            out.append('}');
        }
        out.append(' ').append(PromText.goFloat(value)).append('\n');
    }

    /** The exposed name: counters get their {@code _total} back (the Java client stores them without it). */
    private static String name(MetricSnapshot s) {
        String base = s.getMetadata().getPrometheusName();
        return s instanceof CounterSnapshot ? base + "_total" : base;
    }

    private static String labelValues(Labels labels) {
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < labels.size(); i++) {
            key.append(labels.getValue(i)).append('\u0000');
        }
        return key.toString();
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
