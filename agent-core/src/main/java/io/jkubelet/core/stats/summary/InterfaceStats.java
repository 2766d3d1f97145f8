package io.jkubelet.core.stats.summary;

/** Upstream {@code InterfaceStats}. */
public record InterfaceStats(String name, Long rxBytes, Long rxErrors, Long txBytes, Long txErrors) {}
