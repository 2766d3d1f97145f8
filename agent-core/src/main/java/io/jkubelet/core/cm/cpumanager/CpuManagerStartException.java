package io.jkubelet.core.cm.cpumanager;

/** The CPU manager could not start: its state does not fit the policy, or its state file cannot be used. */
public final class CpuManagerStartException extends Exception {
    public CpuManagerStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
