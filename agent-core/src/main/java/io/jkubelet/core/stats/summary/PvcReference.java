package io.jkubelet.core.stats.summary;

/** Upstream {@code PVCReference}. */
public record PvcReference(String name, String namespace) {}
