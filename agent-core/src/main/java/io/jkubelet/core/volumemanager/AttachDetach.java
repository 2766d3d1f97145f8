package io.jkubelet.core.volumemanager;

import io.jkubelet.core.volume.util.operationexecutor.NodeReader;

/**
 * Who attaches this node's attachable volumes and where the kubelet sees that they are (upstream
 * {@code NewVolumeManager}'s {@code controllerAttachDetachEnabled} and {@code kubeClient}).
 *
 * @param controllerAttachDetachEnabled {@code enableControllerAttachDetach}: the attach/detach controller attaches
 *     (the default); false asks the kubelet to attach, which jkubelet does not do
 * @param node this node's Node, whose {@code status.volumesAttached} lists what the controller attached; null on a
 *     standalone node
 */
public record AttachDetach(boolean controllerAttachDetachEnabled, NodeReader node) {
    /** A node without an apiserver: nothing it mounts is attachable (no CSIDriver says so). */
    public static final AttachDetach STANDALONE = new AttachDetach(true, null);
}
