package io.jkubelet.core.runtime;

import java.util.List;

/**
 * A container's effective security settings (CRI {@code LinuxContainerSecurityContext}).
 *
 * @param runAsUser a numeric user, or {@code null} when {@code runAsUsername} names the user (or, from a caller other
 *     than the kubelet, for the image's own user)
 * @param runAsGroup a numeric group, or {@code null}
 * @param addCapabilities capability names without the {@code CAP_} prefix, as in the pod spec
 * @param dropCapabilities capability names without the {@code CAP_} prefix, or {@code ALL}
 * @param seccomp the container's seccomp profile; the kubelet always says which (Unconfined unless the pod or
 *     {@code seccompDefault} asks for another)
 * @param runAsUsername the user by name, when {@code runAsUser} is null (the image's non-numeric user); else empty
 * @param apparmor the container's AppArmor profile, or {@code null} when the pod asks for none (the runtime applies
 *     its default where the host has AppArmor, as for RuntimeDefault)
 */
public record LinuxContainerSecurityContext(Long runAsUser, Long runAsGroup, List<Long> supplementalGroups,
                                            boolean privileged, boolean readonlyRootfs,
                                            List<String> addCapabilities, List<String> dropCapabilities,
                                            NamespaceOptions namespaceOptions, boolean noNewPrivileges,
                                            SecurityProfile seccomp, String runAsUsername,
                                            SecurityProfile apparmor) {
    public LinuxContainerSecurityContext {
        seccomp = seccomp == null ? SecurityProfile.UNCONFINED : seccomp; // CRI: no profile is unconfined
        supplementalGroups = List.copyOf(supplementalGroups);
        addCapabilities = List.copyOf(addCapabilities);
        dropCapabilities = List.copyOf(dropCapabilities);
        runAsUsername = runAsUsername == null ? "" : runAsUsername;
    }

    /** With a seccomp profile, a numeric user (or none) and no AppArmor profile asked for. */
    public LinuxContainerSecurityContext(Long runAsUser, Long runAsGroup, List<Long> supplementalGroups,
                                         boolean privileged, boolean readonlyRootfs,
                                         List<String> addCapabilities, List<String> dropCapabilities,
                                         NamespaceOptions namespaceOptions, boolean noNewPrivileges,
                                         SecurityProfile seccomp) {
        this(runAsUser, runAsGroup, supplementalGroups, privileged, readonlyRootfs, addCapabilities, dropCapabilities,
                namespaceOptions, noNewPrivileges, seccomp, "", null);
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
