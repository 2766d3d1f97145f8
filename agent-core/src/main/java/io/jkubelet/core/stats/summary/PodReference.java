package io.jkubelet.core.stats.summary;

/** Upstream {@code PodReference}. */
public record PodReference(String name, String namespace, String uid) {}
