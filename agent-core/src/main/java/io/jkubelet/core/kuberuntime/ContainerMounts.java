package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.jkubelet.core.kuberuntime.ContainerConfigFactory.ConfigException;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.util.Expansion;
import io.jkubelet.core.volumemanager.VolumeInfo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A container's mounts (upstream {@code makeMounts}): its volume mounts with {@code subPath}/{@code subPathExpr} and
 * propagation, the kubelet's {@code /etc/hosts} unless the container mounts its own, and the termination message file.
 */
final class ContainerMounts {
    private ContainerMounts() {}

    /**
     * @param volumes the pod's mounted volumes, by name (upstream {@code GetMountedVolumesForPod})
     * @param etcHosts the kubelet-managed hosts file, or null for none
     * @param terminationMessageFile the host file mounted at {@code tmPath}, or null for none
     * @param env the container's variables, which {@code subPathExpr} is expanded against
     */
    static List<Mount> of(Pod pod, Container c, Map<String, VolumeInfo> volumes, Path etcHosts,
                               Path terminationMessageFile, String tmPath, Map<String, String> env)
            throws ConfigException {
        List<Mount> mounts = new ArrayList<>();
        boolean mountsEtcHosts = false;
        if (c.getVolumeMounts() != null) {
            for (VolumeMount vm : c.getVolumeMounts()) {
                VolumeInfo volume = volumes.get(vm.getName());
                if (volume == null) {
                    throw new ConfigException("cannot find volume \"" + vm.getName() + "\" to mount into container \""
                            + c.getName() + "\"");
                }
                Path host = volume.path();
                String subPath = vm.getSubPath();
                if ((subPath == null || subPath.isEmpty()) && vm.getSubPathExpr() != null) {
                    subPath = Expansion.expand(vm.getSubPathExpr(), env);
                }
                if (subPath != null && !subPath.isEmpty()) {
                    if (subPath.startsWith("/") || Path.of(subPath).normalize().startsWith("..")) {
                        throw new ConfigException("subPath \"" + subPath + "\" of volume \"" + vm.getName()
                                + "\" must be a relative path inside the volume");
                    }
                    host = host.resolve(subPath);
                    try {
                        if (!Files.exists(host)) {
                            makeSubPathDir(volume.path(), host);
                        }
                    } catch (IOException e) {
                        throw new ConfigException("failed to create subPath directory for volumeMount \"" + vm.getName()
                                + "\" of container \"" + c.getName() + "\": " + e.getMessage());
                    }
                }
                if ("/etc/hosts".equals(vm.getMountPath())) {
                    mountsEtcHosts = true;
                }
                String propagation = switch (vm.getMountPropagation() == null ? "None" : vm.getMountPropagation()) {
                    case "HostToContainer" -> "rslave";
                    case "Bidirectional" -> "rshared";
                    case "None" -> "private";
                    default -> throw new ConfigException("invalid MountPropagation mode: \"" + vm.getMountPropagation() + "\"");
                };
                // Upstream's mustMountRO, the plugin's attributes: the kubelet owns the files of configMap, secret,
                // downwardAPI and projected volumes, and a claim may be read-only.
                mounts.add(new Mount(vm.getMountPath(), host.toString(), Boolean.TRUE.equals(vm.getReadOnly()) || volume.readOnly(),
                        propagation));
            }
        }
        if (etcHosts != null && !mountsEtcHosts) {
            mounts.add(new Mount("/etc/hosts", etcHosts.toString(), false));
        }
        if (terminationMessageFile != null) {
            mounts.add(new Mount(tmPath, terminationMessageFile.toString(), false));
        }
        return mounts;
    }

    /**
     * Upstream's {@code SafeMakeDir} with the volume root's mode: each directory made between the root and the subPath
     * gets the root's mode, its setgid and sticky bits too, whatever the umask, so that the subPath of an emptyDir is
     * as writable as the volume, and the {@code fsGroup}'s (the group comes from the setgid root).
     */
    private static void makeSubPathDir(Path root, Path dir) throws IOException {
        int mode = (Integer) Files.getAttribute(root, "unix:mode") & 07777;
        Path p = root;
        for (Path name : root.relativize(dir)) {
            p = p.resolve(name);
            if (!Files.exists(p)) {
                Files.createDirectory(p);
                Files.setAttribute(p, "unix:mode", mode);
            }
        }
    }
}
