package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.PodSandboxFilter;

import java.util.HashMap;
import java.util.Map;

/**
 * Runtime filters narrowed to this node's containers and sandboxes (its node-name label), so that two agents
 * on one runtime never see each other's pods.
 */
record NodeScope(String nodeName) {

    PodSandboxFilter scoped(PodSandboxFilter f) {
        var labels = new HashMap<>(f.labelSelector() == null ? Map.of() : f.labelSelector());
        labels.put(Labels.NODE_NAME, nodeName);
        return new PodSandboxFilter(f.id(), f.state(), labels);
    }

    ContainerFilter scoped(ContainerFilter f) {
        var labels = new HashMap<>(f.labelSelector() == null ? Map.of() : f.labelSelector());
        labels.put(Labels.NODE_NAME, nodeName);
        return new ContainerFilter(f.id(), f.state(), f.podSandboxId(), labels);
    }
}
