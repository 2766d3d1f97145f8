package io.jkubelet.core.eviction;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the node can free of a starved resource before it evicts pods (upstream
 * {@code buildSignalToNodeReclaimFuncs}, without a separate container file system): dead containers and unused images
 * for the file system they are on. With a dedicated image file system, pressure on the node's file system has nothing
 * to free this way (only pods' logs and volumes are there); on one file system, both signals free both.
 */
public final class NodeReclaim {

    /** One way of freeing node-level resources; failures are logged, and the next one still runs. */
    @FunctionalInterface
    public interface ReclaimFunc {
        void reclaim() throws Exception;
    }

    private final ReclaimFunc deleteAllUnusedContainers;
    private final ReclaimFunc deleteUnusedImages;

    /**
     * @param deleteAllUnusedContainers container GC that also frees what terminated pods keep (upstream
     *     {@code ContainerGC.DeleteAllUnusedContainers})
     * @param deleteUnusedImages every unused image (upstream {@code ImageGC.DeleteUnusedImages})
     */
    public NodeReclaim(ReclaimFunc deleteAllUnusedContainers, ReclaimFunc deleteUnusedImages) {
        this.deleteAllUnusedContainers = deleteAllUnusedContainers;
        this.deleteUnusedImages = deleteUnusedImages;
    }

    /** Nothing to free at node level. */
    public static final NodeReclaim NONE = new NodeReclaim(() -> { }, () -> { });

    /** The reclaim functions of each disk signal, in the order they run; memory and PIDs have none. */
    Map<Signal, List<ReclaimFunc>> forSignals(boolean dedicatedImageFs) {
        List<ReclaimFunc> both = List.of(deleteAllUnusedContainers, deleteUnusedImages);
        Map<Signal, List<ReclaimFunc>> funcs = new EnumMap<>(Signal.class);
        List<ReclaimFunc> nodeFs = dedicatedImageFs ? List.of() : both;
        funcs.put(Signal.NODEFS_AVAILABLE, nodeFs);
        funcs.put(Signal.NODEFS_INODES_FREE, nodeFs);
        funcs.put(Signal.IMAGEFS_AVAILABLE, both);
        funcs.put(Signal.IMAGEFS_INODES_FREE, both);
        funcs.put(Signal.CONTAINERFS_AVAILABLE, dedicatedImageFs ? both : nodeFs);
        funcs.put(Signal.CONTAINERFS_INODES_FREE, dedicatedImageFs ? both : nodeFs);
        return funcs;
    }
}
