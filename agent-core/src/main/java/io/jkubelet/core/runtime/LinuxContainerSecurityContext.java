package io.jkubelet.core.runtime;

import java.util.List;

/**
 * A container's effective security settings (CRI {@code LinuxContainerSecurityContext}).
 *
 * @param runAsUser a numeric user, or {@code null} for the image's user
 * @param runAsGroup a numeric group, or {@code null}
 * @param addCapabilities capability names without the {@code CAP_} prefix, as in the pod spec
 * @param dropCapabilities capability names without the {@code CAP_} prefix, or {@code ALL}
 */
public record LinuxContainerSecurityContext(Long runAsUser, Long runAsGroup, List<Long> supplementalGroups,
                                            boolean privileged, boolean readonlyRootfs,
                                            List<String> addCapabilities, List<String> dropCapabilities,
                                            NamespaceOptions namespaceOptions, boolean noNewPrivileges) {
    public LinuxContainerSecurityContext {
        supplementalGroups = List.copyOf(supplementalGroups);
        addCapabilities = List.copyOf(addCapabilities);
        dropCapabilities = List.copyOf(dropCapabilities);
    }
}
