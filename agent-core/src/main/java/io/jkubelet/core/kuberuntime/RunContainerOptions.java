package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.runtime.Device;
import io.jkubelet.core.runtime.KeyValue;
import io.jkubelet.core.runtime.Mount;

import java.util.List;
import java.util.Map;

/**
 * What the node's managers add to a container (upstream {@code kubecontainer.RunContainerOptions} as the container
 * manager's {@code GetResources} fills it: a device plugin's environment, mounts, device nodes, annotations and CDI
 * devices). The container's own environment and mounts come after these; its annotations override these.
 */
public record RunContainerOptions(List<KeyValue> envs, List<Mount> mounts, List<Device> devices,
                                  Map<String, String> annotations, List<String> cdiDevices) {
    public static final RunContainerOptions NONE = new RunContainerOptions(List.of(), List.of(), List.of(), Map.of(),
            List.of());

    public RunContainerOptions {
        envs = List.copyOf(envs);
        mounts = List.copyOf(mounts);
        devices = List.copyOf(devices);
        annotations = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(annotations));
        cdiDevices = List.copyOf(cdiDevices);
    }

    /**
     * The container manager's {@code GetResources} for a container about to be created.
     */
    @FunctionalInterface
    public interface Source {
        Source NONE = (pod, container) -> RunContainerOptions.NONE;

        /** @throws Exception when they cannot be had (a plugin's {@code PreStartContainer} failed): the container waits */
        RunContainerOptions get(io.fabric8.kubernetes.api.model.Pod pod, io.fabric8.kubernetes.api.model.Container container)
                throws Exception;
    }
}
