package io.jkubelet.core.events;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.podutil.PodSpecs;

/** Object references for events, with the field paths the kubelet uses for containers. */
public final class References {
    private References() {}

    public static ObjectReference pod(Pod pod) {
        ObjectReference r = new ObjectReference();
        r.setKind("Pod");
        r.setApiVersion("v1");
        r.setName(pod.getMetadata().getName());
        r.setNamespace(pod.getMetadata().getNamespace());
        r.setUid(pod.getMetadata().getUid());
        r.setResourceVersion(pod.getMetadata().getResourceVersion());
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
