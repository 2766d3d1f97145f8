package io.jkubelet.core.runtime;

/**
 * A host device node given to a container (CRI {@code Device}).
 *
 * @param permissions the device cgroup's permissions: some of {@code r}, {@code w}, {@code m}
 */
public record Device(String containerPath, String hostPath, String permissions) {}
