package io.jkubelet.core.volume.util.operationexecutor;

import io.fabric8.kubernetes.api.model.AttachedVolume;
import io.fabric8.kubernetes.api.model.Node;
import io.jkubelet.core.apierrors.ApiException;

import java.util.List;

/**
 * This node's Node as the apiserver has it, read through to etcd (upstream's {@code kubeClient.CoreV1().Nodes().Get}):
 * the volume manager reads its {@code status.volumesAttached}, where the attach/detach controller lists what it
 * attached. A standalone node has none. Each call is one request.
 */
@FunctionalInterface
public interface NodeReader {
    /** @throws ApiException when it cannot be read, {@code nodes "<name>" not found} included */
    Node getNode();

    /** The Node's {@code status.volumesAttached}, none when it has none; one request. */
    default List<AttachedVolume> volumesAttached() {
        Node n = getNode();
        return n.getStatus() == null || n.getStatus().getVolumesAttached() == null ? List.of()
                : n.getStatus().getVolumesAttached();
    }
}
