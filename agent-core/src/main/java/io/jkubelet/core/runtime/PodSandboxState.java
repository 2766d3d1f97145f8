package io.jkubelet.core.runtime;

/** CRI {@code PodSandboxState}. */
public enum PodSandboxState {
    SANDBOX_READY,
    SANDBOX_NOTREADY
}
