package io.jkubelet.core.probe;

import io.jkubelet.core.runtime.ExecResult;
import io.jkubelet.core.runtime.RuntimeService;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The {@code exec} handler (upstream {@code pkg/probe/exec}): runs the command in the container through
 * the runtime's {@code ExecSync}. Exit code 0 is success, any other a {@link ProbeResult#FAILURE} whose
 * output is what the command printed (stdout then stderr, at most 10 KiB). A command still running at
 * {@code timeoutSeconds} is a failure {@code command "…" timed out}: the timeout is enforced, as upstream
 * does since the fix of kubernetes#94080. A runtime that cannot exec at all is a {@link ProbeException}.
 * Thread-safe when the runtime is.
 */
public final class ExecProber {
    /** Upstream {@code maxReadLength}: the output kept for the event and the status message. */
    public static final int MAX_READ_LENGTH = 10 * 1024;

    private final RuntimeService runtime;

    public ExecProber(RuntimeService runtime) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
    }

    /**
     * @param command the probe's command, already expanded ({@code $(VAR)} of the container's env)
     * @throws ProbeException when the runtime refuses or fails the exec (container gone, not running, ...)
     */
    public ProbeOutcome probe(String containerId, List<String> command, Duration timeout) throws ProbeException {
        ExecResult result;
        try {
            result = runtime.execSync(containerId, command, timeout);
        } catch (RuntimeException e) {
            throw new ProbeException("exec " + GoFormat.quote(String.join(" ", command)) + " in container "
                    + containerId + " failed: " + e.getMessage(), e);
        }
        if (result.timedOut()) {
            return ProbeOutcome.failure("command " + GoFormat.quote(String.join(" ", command)) + " timed out");
        }
        String output = output(result);
        return result.exitCode() == 0 ? ProbeOutcome.success(output) : ProbeOutcome.failure(output);
    }

    /** Upstream writes stdout and stderr into one buffer limited to {@link #MAX_READ_LENGTH}. */
    private static String output(ExecResult result) {
        byte[] out = result.stdout() == null ? new byte[0] : result.stdout();
        byte[] err = result.stderr() == null ? new byte[0] : result.stderr();
        int outLen = Math.min(out.length, MAX_READ_LENGTH);
        int errLen = Math.min(err.length, MAX_READ_LENGTH - outLen);
        byte[] combined = new byte[outLen + errLen];
        System.arraycopy(out, 0, combined, 0, outLen);
        System.arraycopy(err, 0, combined, outLen, errLen);
        return new String(combined, StandardCharsets.UTF_8);
    }
}
