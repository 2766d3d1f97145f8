package io.jkubelet.core.sysctl;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Sysctl;
import io.jkubelet.core.admission.PodAdmitHandler;
import io.jkubelet.core.admission.PodAdmitResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Admits a pod only when every sysctl it sets is allowed (upstream's {@code patternAllowlist}): the safe sysctls and
 * the node's {@code allowedUnsafeSysctls}, each a name or a pattern ending in {@code *}, and never one of a
 * namespace the pod shares with the node ({@code hostNetwork}, {@code hostIPC}).
 */
public final class SysctlAllowlist implements PodAdmitHandler {
    /** The reason of a refused pod (upstream's {@code ForbiddenReason}). */
    public static final String FORBIDDEN_REASON = "SysctlForbidden";

    /** Upstream's {@code SysctlContainSlashPatternFmt}: dotted or slashed segments, the last may end in '*'. */
    static final String PATTERN_FORMAT = "([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*([a-z0-9][-_a-z0-9]*)?[a-z0-9*]";
    private static final Pattern PATTERN = Pattern.compile(PATTERN_FORMAT);
    static final int MAX_LENGTH = 253;

    private final Map<String, SysctlNamespace> sysctls = new LinkedHashMap<>();
    private final Map<String, SysctlNamespace> prefixes = new LinkedHashMap<>();

    private SysctlAllowlist() {}

    /**
     * The safe sysctls of this kernel and the node's unsafe ones (upstream {@code NewAllowlist} over both).
     *
     * @throws IllegalArgumentException naming the first pattern that is malformed or not of a known namespace
     */
    public static SysctlAllowlist of(List<String> safe, List<String> allowedUnsafe) {
        List<String> all = new ArrayList<>(safe);
        all.addAll(allowedUnsafe);
        SysctlAllowlist allowlist = new SysctlAllowlist();
        for (String pattern : all) {
            if (pattern.length() > MAX_LENGTH || !PATTERN.matcher(pattern).matches()) {
                throw new IllegalArgumentException("sysctl \"" + pattern + "\" must have at most " + MAX_LENGTH
                        + " characters and match regex " + PATTERN_FORMAT);
            }
            String name = SysctlNamespace.normalize(pattern);
            int star = name.indexOf('*');
            String nameOrPrefix = star < 0 ? name : name.substring(0, star);
            SysctlNamespace ns = SysctlNamespace.of(nameOrPrefix);
            if (ns == SysctlNamespace.UNKNOWN) {
                throw new IllegalArgumentException("the sysctls \"" + nameOrPrefix + "\" are not known to be namespaced");
            }
            (star < 0 ? allowlist.sysctls : allowlist.prefixes).put(nameOrPrefix, ns);
        }
        return allowlist;
    }

    /**
     * The safe sysctls of the running kernel and {@code allowedUnsafeSysctls}: the kubelet's {@code SysctlForbidden}
     * admit handler.
     *
     * @throws IllegalArgumentException naming {@code allowedUnsafeSysctls} and its first bad pattern
     */
    public static SysctlAllowlist forThisKernel(List<String> allowedUnsafeSysctls) {
        try {
            return of(SafeSysctls.forThisKernel(), allowedUnsafeSysctls);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("allowedUnsafeSysctls: " + e.getMessage(), e);
        }
    }

    @Override
    public PodAdmitResult admit(Pod pod, List<Pod> otherPods) {
        var context = pod.getSpec().getSecurityContext();
        if (context == null || context.getSysctls() == null) {
            return PodAdmitResult.ADMIT;
        }
        boolean hostNetwork = Boolean.TRUE.equals(pod.getSpec().getHostNetwork());
        boolean hostIpc = Boolean.TRUE.equals(pod.getSpec().getHostIPC());
        for (Sysctl s : context.getSysctls()) {
            String refusal = refusal(s.getName() == null ? "" : s.getName(), hostNetwork, hostIpc);
            if (refusal != null) {
                return PodAdmitResult.reject(FORBIDDEN_REASON, "forbidden sysctl: " + refusal);
            }
        }
        return PodAdmitResult.ADMIT;
    }

    /** Why the pod may not set this sysctl, or null when it may (upstream's {@code validateSysctl}). */
    private String refusal(String sysctl, boolean hostNetwork, boolean hostIpc) {
        String name = SysctlNamespace.normalize(sysctl);
        SysctlNamespace ns = sysctls.get(name);
        if (ns == null) {
            ns = prefixes.entrySet().stream().filter(p -> name.startsWith(p.getKey())).map(Map.Entry::getValue)
                    .findFirst().orElse(null);
        }
        if (ns == null) {
            return "\"" + name + "\" not allowlisted";
        }
        if (ns == SysctlNamespace.IPC && hostIpc || ns == SysctlNamespace.NET && hostNetwork) {
            return "\"" + name + "\" not allowed with host " + ns + " enabled";
        }
        return null;
    }
}
