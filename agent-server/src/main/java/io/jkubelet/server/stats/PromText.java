package io.jkubelet.server.stats;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes metric families in the Prometheus text format 0.0.4 as Go's {@code expfmt} does for the kubelet's
 * custom collectors: families sorted by name, series sorted by their label values, label names sorted, values
 * formatted as Go's {@code strconv.FormatFloat(v, 'g', -1, 64)}, optional millisecond timestamps. A family
 * without series is left out, as Go's gatherer leaves it out. Not thread-safe; one per scrape.
 */
public final class PromText {
    private final Map<String, Family> families = new TreeMap<>();

    private static final class Family {
        final String help;
        final String type;
        final List<Series> series = new ArrayList<>();

        Family(String help, String type) {
            this.help = help;
            this.type = type;
        }
    }

    private record Series(TreeMap<String, String> labels, double value, Long timestampMillis) {
        String sortKey() {
            return String.join("\u0000", labels.values());
        }
    }

    /** Declares a family; series added to it later are written under its HELP and TYPE. */
    PromText family(String name, String type, String help) {
        families.putIfAbsent(name, new Family(help, type));
        return this;
    }

    /**
     * Adds one series.
     *
     * @param labels name, value, name, value, ...
     * @param timestampMillis {@code null} for none
     */
    PromText add(String family, double value, Long timestampMillis, String... labels) {
        TreeMap<String, String> l = new TreeMap<>();
        for (int i = 0; i + 1 < labels.length; i += 2) {
            l.put(labels[i], labels[i + 1] == null ? "" : labels[i + 1]);
        }
        Family f = families.get(family);
        if (f == null) {
            throw new IllegalArgumentException("undeclared metric family " + family);
        }
        f.series.add(new Series(l, value, timestampMillis));
        return this;
    }

    byte[] toBytes() {
        StringBuilder out = new StringBuilder(8192);
        families.forEach((name, f) -> {
            if (f.series.isEmpty()) {
                return;
            }
            out.append("# HELP ").append(name).append(' ').append(escapeHelp(f.help)).append('\n');
            out.append("# TYPE ").append(name).append(' ').append(f.type).append('\n');
            List<Series> sorted = new ArrayList<>(f.series);
            sorted.sort(Comparator.comparing(Series::sortKey));
            for (Series s : sorted) {
                out.append(name);
                if (!s.labels().isEmpty()) {
                    out.append('{');
                    boolean first = true;
                    for (var e : s.labels().entrySet()) {
                        if (!first) {
                            out.append(',');
                        }
                        first = false;
                        out.append(e.getKey()).append("=\"").append(escapeLabel(e.getValue())).append('"');
                    }
                    out.append('}');
                }
                out.append(' ').append(goFloat(s.value()));
                if (s.timestampMillis() != null) {
                    out.append(' ').append(s.timestampMillis());
                }
                out.append('\n');
            }
        });
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Go's {@code strconv.FormatFloat(v, 'g', -1, 64)}: the shortest digits that round-trip, in %e form when
     * the decimal exponent is below -4 or at least 6 (Go's rule for the shortest precision); e.g. {@code 123456}, {@code 1.234567e+06}, {@code 0.0001},
     * {@code 1e-05}. Infinities and NaN as {@code expfmt} writes them.
     */
    public static String goFloat(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        if (v == 0) {
            return (1 / v) < 0 ? "-0" : "0";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e6) {
            // Whole numbers below 10^6 (counts, most counters and bucket bounds) print as plain integers in Go's
            // shortest form too; this skips the BigDecimal below, the bulk of a /metrics request's cost.
            return Long.toString((long) v);
        }
        String sign = v < 0 ? "-" : "";
        // Java's Double.toString gives the shortest decimal that round-trips (JDK 19+), as Go's shortest mode.
        BigDecimal d = new BigDecimal(Double.toString(Math.abs(v))).stripTrailingZeros();
        String digits = d.unscaledValue().toString();
        int exp = digits.length() - 1 - d.scale();
        if (exp < -4 || exp >= 6) {
            StringBuilder s = new StringBuilder(sign).append(digits.charAt(0));
            if (digits.length() > 1) {
                s.append('.').append(digits, 1, digits.length());
            }
            s.append('e').append(exp < 0 ? '-' : '+');
            int a = Math.abs(exp);
            if (a < 10) {
                s.append('0');
            }
            return s.append(a).toString();
        }
        return sign + d.toPlainString();
    }

    private static String escapeHelp(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n");
    }

    private static String escapeLabel(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
