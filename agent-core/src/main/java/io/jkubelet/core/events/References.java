package io.jkubelet.core.events;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.podutil.PodSpecs;

/** Object references for events, with the field paths the kubelet uses for containers. */
public final class References {
    private References() {}

    public static ObjectReference pod(Pod pod) {
        return core("Pod", pod.getMetadata());
    }

    /** A PersistentVolumeClaim, for the volume events upstream records on the claim as well as on the pod. */
    public static ObjectReference claim(PersistentVolumeClaim claim) {
        return core("PersistentVolumeClaim", claim.getMetadata());
    }

    /** A namespaced core/v1 object, as client-go's {@code GetReference} makes it. */
    private static ObjectReference core(String kind, ObjectMeta meta) {
        ObjectReference r = new ObjectReference();
        r.setKind(kind);
        r.setApiVersion("v1");
        r.setName(meta.getName());
        r.setNamespace(meta.getNamespace());
        r.setUid(meta.getUid());
        r.setResourceVersion(meta.getResourceVersion());
        return r;
    }

    /** The node as events name it: kind Node, no namespace, and the node name as its UID (upstream's nodeRef). */
    public static ObjectReference node(String nodeName) {
        ObjectReference r = new ObjectReference();
        r.setKind("Node");
        r.setName(nodeName);
        r.setUid(nodeName);
        r.setNamespace("");
        return r;
    }

    /** {@code spec.containers{name}} or {@code spec.initContainers{name}}, as upstream's GenerateContainerRef. */
    public static ObjectReference container(Pod pod, Container c) {
        ObjectReference r = pod(pod);
        String list = PodSpecs.isInitContainer(pod, c.getName()) ? "spec.initContainers" : "spec.containers";
        r.setFieldPath(list + "{" + c.getName() + "}");
        return r;
    }
}
