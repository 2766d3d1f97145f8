package io.jkubelet.cadvisor;

/**
 * Where systemd puts a slice in the cgroup tree (libcontainer's {@code ExpandSlice}): a dash in a slice name is a
 * step down the hierarchy, so {@code kubepods-burstable-pod1.slice} lives at
 * {@code /kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1.slice}. Both the kubelet's systemd cgroup
 * names and Docker's systemd cgroup parents need it.
 */
public final class SystemdSlice {
    public static final String SUFFIX = ".slice";

    private SystemdSlice() {}

    /**
     * The cgroup path of {@code slice}; {@code -.slice} is the root.
     *
     * @throws IllegalArgumentException when {@code slice} is not a slice name (no {@code .slice} suffix, a slash,
     *     or an empty step such as {@code a--b.slice})
     */
    public static String expand(String slice) {
        if (slice.length() <= SUFFIX.length() || !slice.endsWith(SUFFIX) || slice.contains("/")) {
            throw new IllegalArgumentException("invalid slice name: " + slice);
        }
        String name = slice.substring(0, slice.length() - SUFFIX.length());
        if (name.equals("-")) {
            return "/";
        }
        StringBuilder path = new StringBuilder();
        StringBuilder prefix = new StringBuilder();
        for (String step : name.split("-", -1)) {
            if (step.isEmpty()) {
                throw new IllegalArgumentException("invalid slice name: " + slice);
            }
            path.append('/').append(prefix).append(step).append(SUFFIX);
            prefix.append(step).append('-');
        }
        return path.toString();
    }
}
