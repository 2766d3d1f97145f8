package io.jkubelet.core.probe;

import java.util.Objects;

/**
 * What one probe handler run produced (upstream's {@code (probe.Result, output)} pair): the result and
 * the text shown to the user in {@code Unhealthy} / {@code ProbeWarning} events. A handler that cannot
 * run at all throws {@link ProbeException} instead (upstream's non-nil {@code error}).
 */
public record ProbeOutcome(ProbeResult result, String output) {
    public ProbeOutcome {
        Objects.requireNonNull(result, "result");
        output = output == null ? "" : output;
    }

    public static ProbeOutcome success(String output) {
        return new ProbeOutcome(ProbeResult.SUCCESS, output);
    }

    public static ProbeOutcome warning(String output) {
        return new ProbeOutcome(ProbeResult.WARNING, output);
    }

    public static ProbeOutcome failure(String output) {
        return new ProbeOutcome(ProbeResult.FAILURE, output);
    }
}
