package io.jkubelet.core.cm;

import io.jkubelet.cadvisor.SystemdSlice;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A cgroup as the kubelet names it, independent of the driver (upstream {@code CgroupName}): its components from
 * the root, e.g. {@code [kubepods, burstable, pod<uid>]}. The driver turns it into a path: {@link #toCgroupfs()}
 * ({@code /kubepods/burstable/pod<uid>}) or {@link #toSystemd()}
 * ({@code /kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid>.slice}).
 */
public record CgroupName(List<String> components) {
    public static final CgroupName ROOT = new CgroupName(List.of());

    public CgroupName {
        components = List.copyOf(components);
    }

    /**
     * This name with {@code more} components below it. A component may hold no {@code /} and no {@code _}: the
     * systemd form writes a component's {@code -} as {@code _}, and the name must read back the same.
     */
    public CgroupName child(String... more) {
        List<String> all = new ArrayList<>(components);
        for (String c : more) {
            if (c.contains("/") || c.contains("_")) {
                throw new IllegalArgumentException("invalid character in component [\"" + c + "\"] of CgroupName");
            }
            all.add(c);
        }
        return new CgroupName(all);
    }

    /** The last component; empty for the root. */
    public String last() {
        return components.isEmpty() ? "" : components.getLast();
    }

    public boolean isRoot() {
        return components.isEmpty() || components.size() == 1 && components.getFirst().isEmpty();
    }

    /** The cgroupfs driver's path: {@code /a/b}. */
    public String toCgroupfs() {
        return "/" + String.join("/", components);
    }

    /** The systemd driver's path, the slice expanded: {@code /a.slice/a-b.slice}; a {@code -} in a component becomes {@code _}. */
    public String toSystemd() {
        if (isRoot()) {
            return "/";
        }
        String slice = components.stream().map(c -> c.replace('-', '_')).collect(Collectors.joining("-"))
                + SystemdSlice.SUFFIX;
        return SystemdSlice.expand(slice);
    }

    /** The name of a cgroupfs path ({@code /a/b}); {@code /} and the empty path are the root. */
    public static CgroupName parseCgroupfs(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        return p.isEmpty() ? ROOT : new CgroupName(Arrays.asList(p.split("/", -1)));
    }

    /** The name of a systemd path or slice: its last step, {@code a-b_c.slice} is {@code [a, b-c]}. */
    public static CgroupName parseSystemd(String path) {
        String base = path.substring(path.lastIndexOf('/') + 1);
        if (base.endsWith(SystemdSlice.SUFFIX)) {
            base = base.substring(0, base.length() - SystemdSlice.SUFFIX.length());
        }
        return new CgroupName(Arrays.stream(base.split("-", -1)).map(c -> c.replace('_', '-')).toList());
    }

    /** As Go prints it with {@code %q}, the way upstream's messages name a cgroup: {@code ["kubepods" "burstable"]}. */
    @Override
    public String toString() {
        return components.stream().map(c -> "\"" + c + "\"").collect(Collectors.joining(" ", "[", "]"));
    }
}
