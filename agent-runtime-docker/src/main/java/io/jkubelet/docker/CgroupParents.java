package io.jkubelet.docker;

import io.jkubelet.cadvisor.SystemdSlice;

/**
 * The cgroup parent of a CRI config as Docker takes it, and where Docker then puts a container's cgroup (dockershim's
 * {@code GenerateExpectedCgroupParent}). The kubelet names the pod cgroup as a path in either driver's form; Docker's
 * systemd driver wants only the slice ({@code kubepods-burstable-pod1.slice}) and makes the container a scope in it.
 */
final class CgroupParents {
    static final String SYSTEMD = "systemd";

    private CgroupParents() {}

    /**
     * The CgroupParent to give Docker. A cgroupfs path handed to Docker's systemd driver is not a slice, so Docker
     * refuses the container: the kubelet's and Docker's drivers must match, which the kubelet checks at start.
     */
    static String forDocker(String criParent, String dockerDriver) {
        if (criParent == null || criParent.isEmpty() || !SYSTEMD.equals(dockerDriver)) {
            return criParent == null ? "" : criParent;
        }
        return criParent.substring(criParent.lastIndexOf('/') + 1);
    }

    /**
     * Where Docker put a container's cgroup: {@code <parent>/<id>} with the cgroupfs driver (parent {@code /docker}
     * by default), {@code <expanded slice>/docker-<id>.scope} with the systemd driver (parent {@code system.slice}
     * by default).
     */
    static String containerCgroup(String dockerDriver, String dockerParent, String id) {
        boolean systemd = SYSTEMD.equals(dockerDriver);
        String p = dockerParent == null || dockerParent.isEmpty() ? (systemd ? "system.slice" : "/docker") : dockerParent;
        if (systemd && p.endsWith(SystemdSlice.SUFFIX) && !p.contains("/")) {
            p = SystemdSlice.expand(p);
        }
        if (!p.startsWith("/")) {
            p = "/" + p;
        }
        if (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return systemd ? p + "/docker-" + id + ".scope" : p + "/" + id;
    }
}
