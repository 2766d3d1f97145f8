package io.jkubelet.core.runtime;

/** What identifies a container in its sandbox: its name in the pod spec and the attempt (restart count). */
public record ContainerMetadata(String name, int attempt) {}
