package io.jkubelet.core.runtime;

import java.util.List;
import java.util.Map;

/**
 * How to create a container (CRI {@code ContainerConfig}), with {@code $(VAR)} references already expanded.
 *
 * @param image the image reference as the spec names it
 * @param command the entrypoint, or empty for the image's
 * @param args the arguments, or empty for the image's
 * @param logPath the log file, relative to the sandbox's log directory ({@code <container>/<attempt>.log})
 * @param devices host device nodes for the container (a device plugin's)
 * @param cdiDevices fully qualified CDI device names for the container (a device plugin's), for runtimes that take them
 */
public record ContainerConfig(
        ContainerMetadata metadata,
        String image,
        List<String> command,
        List<String> args,
        String workingDir,
        List<KeyValue> envs,
        List<Mount> mounts,
        Map<String, String> labels,
        Map<String, String> annotations,
        String logPath,
        boolean stdin,
        boolean stdinOnce,
        boolean tty,
        LinuxContainerResources resources,
        LinuxContainerSecurityContext securityContext,
        List<Device> devices,
        List<String> cdiDevices) {

    /** A container given no devices. */
    public ContainerConfig(ContainerMetadata metadata, String image, List<String> command, List<String> args,
                           String workingDir, List<KeyValue> envs, List<Mount> mounts, Map<String, String> labels,
                           Map<String, String> annotations, String logPath, boolean stdin, boolean stdinOnce,
                           boolean tty, LinuxContainerResources resources,
                           LinuxContainerSecurityContext securityContext) {
        this(metadata, image, command, args, workingDir, envs, mounts, labels, annotations, logPath, stdin, stdinOnce,
                tty, resources, securityContext, List.of(), List.of());
    }

    public ContainerConfig {
        devices = List.copyOf(devices);
        cdiDevices = List.copyOf(cdiDevices);
        command = List.copyOf(command);
        args = List.copyOf(args);
        envs = List.copyOf(envs);
        mounts = List.copyOf(mounts);
        labels = Map.copyOf(labels);
        annotations = Map.copyOf(annotations);
    }
}
