package io.jkubelet.core.cm;

/**
 * A resource manager (the CPU or the memory manager) could not start: its state does not fit the policy, or its state
 * file cannot be used. The message is upstream's container manager's ("start cpu manager error: ...",
 * "start memory manager error: ...").
 */
public final class ResourceManagerStartException extends Exception {
    public ResourceManagerStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
