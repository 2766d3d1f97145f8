package io.jkubelet.core.cm;

/**
 * How cgroups are named on this node ({@code cgroupDriver}); it must match the container runtime's, since the
 * runtime creates each container's cgroup below the pod cgroup the kubelet names.
 */
public enum CgroupDriver {
    /** Plain paths: {@code /kubepods/burstable/pod<uid>}. */
    CGROUPFS("cgroupfs"),
    /** systemd slices: {@code /kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid>.slice}. */
    SYSTEMD("systemd");

    private final String value;

    CgroupDriver(String value) {
        this.value = value;
    }

    /** The configuration value: {@code cgroupfs} or {@code systemd}. */
    public String value() {
        return value;
    }

    /** The driver named by {@code cgroupDriver}. */
    public static CgroupDriver of(String value) {
        for (CgroupDriver d : values()) {
            if (d.value.equals(value)) {
                return d;
            }
        }
        throw new IllegalArgumentException("cgroupDriver (--cgroup-driver) \"" + value
                + "\" must be \"cgroupfs\" or \"systemd\"");
    }

    /** Upstream {@code Name}: the cgroup's path in each hierarchy. */
    public String path(CgroupName name) {
        return this == SYSTEMD ? name.toSystemd() : name.toCgroupfs();
    }

    /** Upstream {@code CgroupName}: the name of a path in this driver's form. */
    public CgroupName parse(String path) {
        return this == SYSTEMD ? CgroupName.parseSystemd(path) : CgroupName.parseCgroupfs(path);
    }
}
