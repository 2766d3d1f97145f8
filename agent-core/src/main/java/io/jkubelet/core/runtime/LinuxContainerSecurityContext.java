package io.jkubelet.core.runtime;

import java.util.List;

/**
 * A container's effective security settings (CRI {@code LinuxContainerSecurityContext}).
 *
 * @param runAsUser a numeric user, or {@code null} for the image's user
 * @param runAsGroup a numeric group, or {@code null}
 * @param addCapabilities capability names without the {@code CAP_} prefix, as in the pod spec
 * @param dropCapabilities capability names without the {@code CAP_} prefix, or {@code ALL}
 * @param seccomp the container's seccomp profile; the kubelet always says which (Unconfined unless the pod or
 *     {@code seccompDefault} asks for another)
 */
public record LinuxContainerSecurityContext(Long runAsUser, Long runAsGroup, List<Long> supplementalGroups,
                                            boolean privileged, boolean readonlyRootfs,
                                            List<String> addCapabilities, List<String> dropCapabilities,
                                            NamespaceOptions namespaceOptions, boolean noNewPrivileges,
                                            SecurityProfile seccomp) {
    public LinuxContainerSecurityContext {
        seccomp = seccomp == null ? SecurityProfile.UNCONFINED : seccomp; // CRI: no profile is unconfined
        supplementalGroups = List.copyOf(supplementalGroups);
        addCapabilities = List.copyOf(addCapabilities);
        dropCapabilities = List.copyOf(dropCapabilities);
    }

    /** Without a seccomp profile: unconfined, as a CRI runtime reads a missing one. */
    public LinuxContainerSecurityContext(Long runAsUser, Long runAsGroup, List<Long> supplementalGroups,
                                         boolean privileged, boolean readonlyRootfs,
                                         List<String> addCapabilities, List<String> dropCapabilities,
                                         NamespaceOptions namespaceOptions, boolean noNewPrivileges) {
        this(runAsUser, runAsGroup, supplementalGroups, privileged, readonlyRootfs, addCapabilities, dropCapabilities,
                namespaceOptions, noNewPrivileges, SecurityProfile.UNCONFINED);
    }
}
