package io.jkubelet.core.stats.summary;

import java.time.Instant;

/** Upstream {@code RlimitStats}; JSON names {@code maxpid} and {@code curproc}. */
public record RlimitStats(Instant time, Long maxPid, Long curProc) {}
