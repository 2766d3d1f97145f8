package io.jkubelet.core.probe;

/**
 * The outcome of one probe run (upstream {@code probe.Result}). {@link #WARNING} is a success with a
 * remark (for example a redirect that was not followed): it counts as success and is recorded as a
 * {@code ProbeWarning} event. {@link #UNKNOWN} means the probe could not be run at all.
 */
public enum ProbeResult {
    SUCCESS,
    WARNING,
    FAILURE,
    UNKNOWN;

    /** Whether the result counts as passing (success or warning). */
    public boolean passed() {
        return this == SUCCESS || this == WARNING;
    }
}
