package io.jkubelet.core.cm.devicemanager;

import java.util.List;
import java.util.Map;

/**
 * What a container needs to use the devices it holds, all its resources together (upstream
 * {@code DeviceRunContainerOptions}): the kubelet puts these before the container's own environment, mounts and
 * annotations, and hands the device nodes and CDI devices to the runtime.
 */
public record DeviceRunContainerOptions(Map<String, String> envs, List<ContainerAllocateResponse.Mount> mounts,
                                        List<ContainerAllocateResponse.DeviceSpec> devices,
                                        Map<String, String> annotations, List<String> cdiDevices) {
    public static final DeviceRunContainerOptions NONE = new DeviceRunContainerOptions(Map.of(), List.of(), List.of(),
            Map.of(), List.of());

    public DeviceRunContainerOptions {
        envs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(envs));
        mounts = List.copyOf(mounts);
        devices = List.copyOf(devices);
        annotations = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(annotations));
        cdiDevices = List.copyOf(cdiDevices);
    }
}
