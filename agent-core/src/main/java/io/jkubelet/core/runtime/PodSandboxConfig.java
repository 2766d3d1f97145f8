package io.jkubelet.core.runtime;

import java.util.List;
import java.util.Map;

/**
 * How to create a sandbox (CRI {@code PodSandboxConfig}).
 *
 * @param hostname the kernel hostname of the pod (ignored with the node's network namespace)
 * @param logDirectory the pod's log directory on the host ({@code /var/log/pods/<ns>_<name>_<uid>});
 *     container log paths are relative to it
 * @param dnsConfig the resolv.conf, or {@code null} for the runtime's default
 * @param portMappings ports published on the host (hostPort)
 * @param labels identifying labels the runtime must keep and filter on
 * @param annotations arbitrary data the runtime must keep and return
 * @param cgroupParent the parent cgroup, or empty
 * @param namespaceOptions network, PID and IPC namespaces
 * @param oomScoreAdj the OOM score of the sandbox's process
 * @param image the sandbox (pause) image
 * @param privileged whether the sandbox runs privileged (when any container does)
 * @param sysctls namespaced sysctls of the pod
 * @param seccomp the sandbox's seccomp profile (the kubelet gives RuntimeDefault)
 */
public record PodSandboxConfig(
        PodSandboxMetadata metadata,
        String hostname,
        String logDirectory,
        DnsConfig dnsConfig,
        List<PortMapping> portMappings,
        Map<String, String> labels,
        Map<String, String> annotations,
        String cgroupParent,
        NamespaceOptions namespaceOptions,
        int oomScoreAdj,
        String image,
        boolean privileged,
        Map<String, String> sysctls,
        SecurityProfile seccomp) {

    public PodSandboxConfig {
        seccomp = seccomp == null ? SecurityProfile.UNCONFINED : seccomp; // CRI: no profile is unconfined
        portMappings = List.copyOf(portMappings);
        labels = Map.copyOf(labels);
        annotations = Map.copyOf(annotations);
        sysctls = Map.copyOf(sysctls);
    }

    /** Without a seccomp profile: unconfined, as a CRI runtime reads a missing one. */
    public PodSandboxConfig(PodSandboxMetadata metadata, String hostname, String logDirectory, DnsConfig dnsConfig,
                            List<PortMapping> portMappings, Map<String, String> labels,
                            Map<String, String> annotations, String cgroupParent, NamespaceOptions namespaceOptions,
                            int oomScoreAdj, String image, boolean privileged, Map<String, String> sysctls) {
        this(metadata, hostname, logDirectory, dnsConfig, portMappings, labels, annotations, cgroupParent,
                namespaceOptions, oomScoreAdj, image, privileged, sysctls, SecurityProfile.UNCONFINED);
    }
}
