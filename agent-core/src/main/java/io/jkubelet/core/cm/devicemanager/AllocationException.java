package io.jkubelet.core.cm.devicemanager;

/**
 * Devices could not be allocated to a container, or what it needs to use them could not be had. The message is
 * upstream's error ("requested number of devices unavailable for ...", a plugin's gRPC error), which admission wraps
 * in its {@code UnexpectedAdmissionError} and a container start shows as its {@code CreateContainerConfigError}.
 */
public final class AllocationException extends Exception {
    public AllocationException(String message) {
        super(message);
    }
}
