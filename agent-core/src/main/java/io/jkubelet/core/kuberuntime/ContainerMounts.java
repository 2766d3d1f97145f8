package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.jkubelet.core.kuberuntime.ContainerConfigFactory.ConfigException;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.util.Expansion;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.util.HostUtil;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volume.util.subpath.Subpath;
import io.jkubelet.core.volume.util.subpath.SubpathException;
import io.jkubelet.core.volume.util.subpath.Subpather;
import io.jkubelet.core.volumemanager.VolumeInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A container's mounts (upstream {@code makeMounts}): its volume mounts with {@code subPath}/{@code subPathExpr} and
 * propagation, the kubelet's {@code /etc/hosts} unless the container mounts its own, and the termination message file.
 * A subPath reaches the runtime as its own bind mount under the pod's directory ({@link Subpather}), never as a path
 * into the volume. Thread-safe.
 */
public final class ContainerMounts {
    private static final Logger log = LoggerFactory.getLogger(ContainerMounts.class);

    private final PodDirs dirs;
    private final Subpather subpather;

    /** @param dirs where the pods' subPath mounts go ({@code <root-dir>/pods/<uid>/volume-subpaths}) */
    public ContainerMounts(PodDirs dirs, Subpather subpather) {
        this.dirs = dirs;
        this.subpather = subpather;
    }

    /** Under upstream's default root directory, with this machine's mounts. */
    static ContainerMounts defaults() {
        return new ContainerMounts(new PodDirs(Path.of("/var/lib/kubelet")), new Subpather(new LinuxMounts()));
    }

    /**
     * @param volumes the pod's mounted volumes, by name (upstream {@code GetMountedVolumesForPod})
     * @param etcHosts the kubelet-managed hosts file, or null for none
     * @param terminationMessageFile the host file mounted at {@code tmPath}, or null for none
     * @param env the container's variables, which {@code subPathExpr} is expanded against
     * @throws ConfigException upstream's messages; a subPath that cannot be made or mounted safely says only which
     *     volume mount of which container (the host's paths go to the log, not to the pod's status)
     */
    List<Mount> makeMounts(Pod pod, Container c, Map<String, VolumeInfo> volumes, Path etcHosts,
                           Path terminationMessageFile, String tmPath, Map<String, String> env) throws ConfigException {
        List<Mount> mounts = new ArrayList<>();
        boolean mountsEtcHosts = false;
        List<VolumeMount> volumeMounts = c.getVolumeMounts() == null ? List.of() : c.getVolumeMounts();
        for (int i = 0; i < volumeMounts.size(); i++) {
            VolumeMount vm = volumeMounts.get(i);
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
                host = subPathHostPath(pod, c, i, vm, volume, subPath);
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
        if (etcHosts != null && !mountsEtcHosts) {
            mounts.add(new Mount("/etc/hosts", etcHosts.toString(), false));
        }
        if (terminationMessageFile != null) {
            mounts.add(new Mount(tmPath, terminationMessageFile.toString(), false));
        }
        return mounts;
    }

    /**
     * The subPath made when it is not there (upstream's {@code SafeMakeDir} with the volume root's mode, its setgid and
     * sticky bits too, whatever the umask, so that the subPath of an emptyDir is as writable as the volume, and the
     * {@code fsGroup}'s), then bind-mounted at its own target ({@code PrepareSafeSubpath}).
     */
    private Path subPathHostPath(Pod pod, Container c, int index, VolumeMount vm, VolumeInfo volume, String subPath)
            throws ConfigException {
        if (subPath.startsWith("/")) {
            throw new ConfigException("error SubPath `" + subPath + "` must not be an absolute path");
        }
        if (HostUtil.hasBacksteps(subPath)) {
            throw new ConfigException("unable to provision SubPath `" + subPath + "`: must not contain '..'");
        }
        Path volumePath = volume.path();
        Path hostPath = volumePath.resolve(subPath).normalize();
        if (!Files.exists(hostPath)) {
            try {
                int perm = (Integer) Files.getAttribute(volumePath, "unix:mode") & 07777;
                subpather.safeMakeDir(subPath, volumePath, perm);
            } catch (IOException | SubpathException e) {
                // Upstream: the detail stays in the log, for it could tell the pod about the host's file system.
                log.error("Failed to create subPath directory for volumeMount \"{}\" of container \"{}\" of pod {}: {}",
                        vm.getName(), c.getName(), pod.getMetadata().getUid(), e.getMessage());
                throw new ConfigException("failed to create subPath directory for volumeMount \"" + vm.getName()
                        + "\" of container \"" + c.getName() + "\"");
            }
        }
        try {
            return subpather.prepareSafeSubpath(new Subpath(index, hostPath, volume.innerVolumeSpecName(), volumePath,
                    dirs.podDir(pod.getMetadata().getUid()), c.getName()));
        } catch (SubpathException e) {
            log.error("Failed to prepare subPath for volumeMount \"{}\" of container \"{}\" of pod {}: {}",
                    vm.getName(), c.getName(), pod.getMetadata().getUid(), e.getMessage());
            throw new ConfigException("failed to prepare subPath for volumeMount \"" + vm.getName()
                    + "\" of container \"" + c.getName() + "\"");
        }
    }
}
