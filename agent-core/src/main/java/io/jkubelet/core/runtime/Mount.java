package io.jkubelet.core.runtime;

/**
 * A host path mounted into a container.
 *
 * @param propagation {@code private}, {@code rslave} or {@code rshared}
 */
public record Mount(String containerPath, String hostPath, boolean readOnly, String propagation) {
    public Mount(String containerPath, String hostPath, boolean readOnly) {
        this(containerPath, hostPath, readOnly, "private");
    }
}
