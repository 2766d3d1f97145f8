package io.jkubelet.core.sysctl;

import java.util.Map;

/**
 * The kernel namespace a sysctl belongs to (component-helpers' {@code sysctl.Namespace}): only sysctls of a namespace
 * the pod has of its own can be set for it. The names are upstream's, which its messages print.
 */
public enum SysctlNamespace {
    IPC("IPC"), NET("Net"), UNKNOWN("");

    /** Sysctls of the IPC namespace by full name ({@code kernel.shm} and {@code kernel.msg} for older patterns). */
    private static final Map<String, SysctlNamespace> BY_NAME = Map.ofEntries(
            Map.entry("kernel.sem", IPC),
            Map.entry("kernel.shmall", IPC), Map.entry("kernel.shmmax", IPC), Map.entry("kernel.shmmni", IPC),
            Map.entry("kernel.shm_rmid_forced", IPC), Map.entry("kernel.shm", IPC),
            Map.entry("kernel.msgmax", IPC), Map.entry("kernel.msgmnb", IPC), Map.entry("kernel.msgmni", IPC),
            Map.entry("kernel.msg", IPC));

    private final String text;

    SysctlNamespace(String text) {
        this.text = text;
    }

    /** The namespace of a sysctl or sysctl prefix already in dotted form: by name, else under {@code net.} or {@code fs.mqueue.}. */
    static SysctlNamespace of(String name) {
        SysctlNamespace ns = BY_NAME.get(name);
        if (ns != null) {
            return ns;
        }
        if (name.startsWith("net.")) {
            return NET;
        }
        if (name.startsWith("fs.mqueue.")) {
            return IPC;
        }
        return UNKNOWN;
    }

    /**
     * A name in dotted form (component-helpers' {@code NormalizeName}): when the first separator is a slash, as in
     * {@code net/ipv4/conf/eno2.100/rp_filter}, dots and slashes swap ({@code net.ipv4.conf.eno2/100.rp_filter}).
     */
    static String normalize(String name) {
        int first = indexOfSeparator(name);
        if (first < 0 || name.charAt(first) == '.') {
            return name;
        }
        StringBuilder swapped = new StringBuilder(name.length());
        for (char c : name.toCharArray()) {
            swapped.append(c == '.' ? '/' : c == '/' ? '.' : c);
        }
        return swapped.toString();
    }

    private static int indexOfSeparator(String name) {
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) == '.' || name.charAt(i) == '/') {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return text;
    }
}
