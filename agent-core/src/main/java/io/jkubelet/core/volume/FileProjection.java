package io.jkubelet.core.volume;

/** One file of a volume written by the {@link AtomicWriter}: its content and its permission bits (e.g. {@code 0644}). */
public record FileProjection(byte[] data, int mode) {}
