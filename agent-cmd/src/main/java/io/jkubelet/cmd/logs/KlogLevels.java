package io.jkubelet.cmd.logs;

import ch.qos.logback.classic.Level;

/**
 * klog's verbosity levels in SLF4J's terms. jkubelet logs at INFO (and WARN, ERROR) what the kubelet logs always
 * or at V(1)-V(2) (start-up, pod lifecycle, changes of state), at DEBUG what it logs at V(4) (per-sync detail), and
 * at TRACE what it logs from V(5) on (per-relist and per-request detail). So {@code -v 0..3} shows INFO and above,
 * {@code -v 4} adds DEBUG, {@code -v 5} and higher add TRACE.
 */
public final class KlogLevels {

    /** klog's "debug level verbosity": jkubelet's DEBUG messages. */
    public static final int DEBUG_V = 4;
    /** klog's "trace level verbosity": jkubelet's TRACE messages. */
    public static final int TRACE_V = 5;

    private KlogLevels() {
    }

    /** The V level a message of {@code level} is logged at: 0 for INFO and above. */
    public static int v(Level level) {
        if (level.toInt() >= Level.INFO_INT) {
            return 0;
        }
        return level.toInt() >= Level.DEBUG_INT ? DEBUG_V : TRACE_V;
    }

    /** Whether a message of {@code level} is logged at verbosity {@code verbosity} (klog's {@code V(n).Enabled()}). */
    public static boolean enabled(Level level, long verbosity) {
        return verbosity >= v(level);
    }
}
