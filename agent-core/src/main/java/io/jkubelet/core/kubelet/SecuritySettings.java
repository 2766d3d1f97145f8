package io.jkubelet.core.kubelet;

import java.util.List;

/**
 * What the configuration says about the pods' kernel security settings.
 *
 * @param seccompDefault {@code seccompDefault}: containers that ask for no seccomp profile get the runtime's
 *     default instead of none
 * @param allowedUnsafeSysctls {@code allowedUnsafeSysctls}: the sysctls and {@code prefix*} patterns pods may set
 *     beyond the safe ones
 */
public record SecuritySettings(boolean seccompDefault, List<String> allowedUnsafeSysctls) {
    /** The v1beta1 defaults: no seccomp profile unless asked, only the safe sysctls. */
    public static final SecuritySettings DEFAULT = new SecuritySettings(false, List.of());

    public SecuritySettings {
        allowedUnsafeSysctls = List.copyOf(allowedUnsafeSysctls);
    }
}
