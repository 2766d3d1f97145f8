package io.jkubelet.core.runtime;

/** What a synchronous exec produced; {@code exitCode} is meaningless when {@code timedOut}. */
public record ExecResult(int exitCode, byte[] stdout, byte[] stderr, boolean timedOut) {}
