package io.jkubelet.core.volume;

/**
 * A plugin whose volumes grow on the node after their PersistentVolume grew (upstream
 * {@code NodeExpandableVolumePlugin}): the kubelet asks it to expand a claim's volume whose PersistentVolume's capacity
 * is larger than the claim's {@code status.capacity}, when the volume is mounted and while it is in use. Thread-safe;
 * the volume manager runs one expansion of a volume at a time.
 */
public interface NodeExpandable {
    /** Upstream {@code RequiresFSResize}: whether the node has to expand the plugin's volumes at all. */
    boolean requiresFsResize();

    /**
     * Upstream {@code NodeExpand}: the volume grown to {@link NodeResizeOptions#newSize()}. Idempotent: a volume already
     * that large is left as it is.
     *
     * @throws OperationNotSupportedException the plugin's volume cannot be expanded on the node (a CSI driver without
     *     {@code EXPAND_VOLUME}): taken as done, as upstream takes it
     * @throws FailedPreconditionException it cannot be expanded while in use: not tried again on this node
     */
    void nodeExpand(NodeResizeOptions options) throws VolumeException;
}
