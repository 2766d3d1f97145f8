package io.jkubelet.core.cm.topologymanager;

/**
 * Where a hint provider reads the NUMA affinity the topology manager admitted a container with (upstream's
 * {@code topologymanager.Store}), to allocate from those nodes. Thread-safe.
 */
@FunctionalInterface
public interface TopologyAffinityStore {
    /** No affinity for any container: the {@code none} policy's store. */
    TopologyAffinityStore NONE = (podUid, container) -> TopologyHint.NONE;

    /** The container's admitted hint; {@link TopologyHint#NONE} when the manager holds none for it. */
    TopologyHint getAffinity(String podUid, String containerName);
}
