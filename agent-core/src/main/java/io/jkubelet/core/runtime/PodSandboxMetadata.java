package io.jkubelet.core.runtime;

/** What identifies a sandbox: the pod and the attempt (0, then +1 for each re-creation). */
public record PodSandboxMetadata(String name, String uid, String namespace, int attempt) {}
