package io.jkubelet.core.prober;

/** The three kinds of container probe, with the names upstream uses in events, messages and metrics. */
public enum ProbeType {
    LIVENESS("Liveness", "Liveness"),
    READINESS("Readiness", "Readiness"),
    STARTUP("Startup", "Startup");

    private final String displayName;
    private final String metricLabel;

    ProbeType(String displayName, String metricLabel) {
        this.displayName = displayName;
        this.metricLabel = metricLabel;
    }

    /** As in events: {@code Liveness probe failed: ...}. */
    public String displayName() {
        return displayName;
    }

    /** The {@code probe_type} label of {@code prober_probe_total}. */
    public String metricLabel() {
        return metricLabel;
    }
}
