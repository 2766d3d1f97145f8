package io.jkubelet.docker.engine;

import java.time.Duration;

/** Durations as the kubelet's flags print them, for messages that name a setting. */
public final class Durations {
    private Durations() {}

    /** {@code 2m0s}, {@code 30s}, {@code 500ms}. */
    public static String text(Duration d) {
        if (d.toMillis() < 1000) {
            return d.toMillis() + "ms";
        }
        long seconds = d.toSeconds();
        long millis = d.toMillisPart();
        String s = (seconds % 60) + (millis == 0 ? "" : "." + String.format("%03d", millis).replaceAll("0+$", "")) + "s";
        if (seconds < 60) {
            return s;
        }
        long minutes = seconds / 60;
        return minutes < 60 ? (minutes + "m" + s) : (minutes / 60 + "h" + (minutes % 60) + "m" + s);
    }
}
