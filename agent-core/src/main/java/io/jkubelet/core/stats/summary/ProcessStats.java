package io.jkubelet.core.stats.summary;

/** Upstream {@code ProcessStats}; JSON name {@code process_count}. */
public record ProcessStats(Long processCount) {}
