package io.jkubelet.core.volume;

import io.fabric8.kubernetes.api.model.Pod;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One kind of volume (upstream {@code volume.VolumePlugin} and the interfaces beside it): which specs it mounts, how it
 * names what it mounts, the {@link Mounter} that sets a volume up for a pod and the {@link Unmounter} that tears it down,
 * and how a volume found on disk after a restart is made a spec again. Implementations are thread-safe; the volume
 * manager never runs two operations on one volume of one pod at once.
 */
public interface VolumePlugin {
    /** Upstream's plugin name, e.g. {@code kubernetes.io/empty-dir}: the directory under a pod's volumes, escaped. */
    String name();

    /** Whether this plugin mounts the spec (exactly one plugin does). */
    boolean canSupport(VolumeSpec spec);

    /**
     * Upstream {@code RequiresRemount}: the volume's content follows objects that may change (configMap, secret,
     * downwardAPI, projected), so each sync of its pod sets it up again.
     */
    default boolean requiresRemount(VolumeSpec spec) {
        return false;
    }

    /**
     * The volume's name when pods can share it (upstream's attachable and device-mountable plugins, whose unique name is
     * the plugin's and {@code GetVolumeName}); empty for a volume of its pod alone, named for the pod.
     */
    default Optional<String> sharedVolumeName(VolumeSpec spec) {
        return Optional.empty();
    }

    /**
     * A mounter of the spec for the pod.
     *
     * @throws VolumeException when the spec cannot be mounted at all (the message says why)
     */
    Mounter newMounter(VolumeSpec spec, Pod pod) throws VolumeException;

    /** An unmounter of the volume {@code volumeName} (the spec's name) of pod {@code podUid}. */
    Unmounter newUnmounter(String volumeName, String podUid) throws VolumeException;

    /**
     * Upstream {@code ConstructVolumeSpec}: the spec of a volume found mounted at {@code mountPath} after a restart, as
     * much as is needed to tear it down, or to take it as mounted when its pod still wants it.
     *
     * @throws VolumeException when it cannot be told from what is on disk
     */
    VolumeSpec constructVolumeSpec(String volumeName, Path mountPath) throws VolumeException;

    /**
     * Upstream {@code DeviceMountableVolumePlugin}: the volume is first mounted once for the node (its global mount),
     * then into each pod. Empty for a plugin that mounts into pods directly.
     */
    default Optional<DeviceMounter> deviceMounter() {
        return Optional.empty();
    }

    /**
     * Upstream {@code AttachableVolumePlugin} ({@code CanAttach} and {@code NewAttacher}): what checks that the spec's
     * volume is attached to the node before it is mounted; empty for a volume that is not attached (every in-tree plugin
     * here). Not sure whether it is (the apiserver did not answer): empty, as upstream's {@code IsAttachableVolume}.
     */
    default Optional<VolumeAttacher> attacher(VolumeSpec spec) {
        return Optional.empty();
    }

    /**
     * Upstream {@code FindNodeExpandablePluginBySpec}: what grows the plugin's volumes on the node after their
     * PersistentVolume grew; empty for a plugin whose volumes are not expanded on the node.
     */
    default Optional<NodeExpandable> nodeExpandable() {
        return Optional.empty();
    }
}
