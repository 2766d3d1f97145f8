package io.jkubelet.core.cm.devicemanager;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a plugin's {@code Allocate} answers for one container (device plugin API {@code ContainerAllocateResponse}):
 * what the container needs to use its devices. Maps are kept sorted by key, so that what reaches the container and
 * the checkpoint does not depend on the order the plugin sent them in.
 *
 * @param envs environment variables
 * @param mounts host paths to mount
 * @param devices device nodes
 * @param annotations annotations for the runtime
 * @param cdiDevices fully qualified CDI device names ({@code vendor.com/class=name})
 */
public record ContainerAllocateResponse(Map<String, String> envs, List<Mount> mounts, List<DeviceSpec> devices,
                                        Map<String, String> annotations, List<String> cdiDevices) {
    public static final ContainerAllocateResponse EMPTY =
            new ContainerAllocateResponse(Map.of(), List.of(), List.of(), Map.of(), List.of());

    public ContainerAllocateResponse {
        envs = java.util.Collections.unmodifiableMap(new TreeMap<>(envs));
        mounts = List.copyOf(mounts);
        devices = List.copyOf(devices);
        annotations = java.util.Collections.unmodifiableMap(new TreeMap<>(annotations));
        cdiDevices = List.copyOf(cdiDevices);
    }

    /** A host path to mount into the container (device plugin API {@code Mount}). */
    public record Mount(String containerPath, String hostPath, boolean readOnly) {}

    /**
     * A host device node for the container (device plugin API {@code DeviceSpec}).
     *
     * @param permissions the device cgroup's permissions: some of {@code r}, {@code w}, {@code m}
     */
    public record DeviceSpec(String containerPath, String hostPath, String permissions) {}
}
