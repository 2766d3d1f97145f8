package io.jkubelet.cmd.logs;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Marker;

/**
 * Decides, before any message of jkubelet's own loggers is formatted, whether klog would log it: its V level (see
 * {@link KlogLevels}) against the global verbosity ({@code -v}, changed at run time by {@code PUT /debug/flags/v})
 * or its file's {@code vmodule} level. Other libraries' loggers keep their own levels. Thread-safe.
 */
public final class VerbosityFilter extends TurboFilter {

    /** The loggers the kubelet's verbosity governs. */
    static final String OWN_LOGGERS = "io.jkubelet.";
    private static final long NO_MATCH = -1;

    private final VModule vmodule;
    /** Each logger's vmodule level (or {@link #NO_MATCH}), computed once: there are a few hundred loggers. */
    private final ConcurrentMap<String, Long> moduleLevels = new ConcurrentHashMap<>();
    private volatile long verbosity;

    public VerbosityFilter(long verbosity, VModule vmodule) {
        this.verbosity = verbosity;
        this.vmodule = vmodule;
    }

    /** klog's {@code -v}, as {@code /debug/flags/v} sets it. */
    public void setVerbosity(long verbosity) {
        this.verbosity = verbosity;
    }

    public long verbosity() {
        return verbosity;
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        if (level == null || !logger.getName().startsWith(OWN_LOGGERS)) {
            return FilterReply.NEUTRAL;
        }
        return enabled(logger.getName(), level) ? FilterReply.ACCEPT : FilterReply.DENY;
    }

    boolean enabled(String loggerName, Level level) {
        if (KlogLevels.enabled(level, verbosity)) {
            return true;
        }
        if (vmodule.isEmpty()) {
            return false;
        }
        long module = moduleLevels.computeIfAbsent(loggerName, name -> {
            OptionalLong v = vmodule.verbosityOf(name);
            return v.isPresent() ? v.getAsLong() : NO_MATCH;
        });
        return module != NO_MATCH && KlogLevels.enabled(level, module);
    }
}
