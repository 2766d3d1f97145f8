package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.VolumeDevice;
import io.jkubelet.core.kuberuntime.ContainerConfigFactory.ConfigException;
import io.jkubelet.core.runtime.Device;
import io.jkubelet.core.volumemanager.VolumeInfo;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Upstream {@code makeBlockVolumes}: a container's {@code volumeDevices}, each the raw block volume the pod has mapped,
 * given to the runtime as a device at its {@code devicePath}: the pod's link to the device on the host (the runtime
 * follows it to the device node), with the device cgroup's {@code mrw}, or {@code r} when the volume's claim is
 * read-only, as upstream.
 */
final class BlockVolumeDevices {
    /** Upstream's permissions of a writable block volume. */
    static final String READ_WRITE = "mrw";
    /** Upstream's permissions of a read-only one: neither {@code m} (mknod) nor {@code w}. */
    static final String READ_ONLY = "r";

    private BlockVolumeDevices() {}

    /**
     * @param volumes the pod's mapped and mounted volumes, by name (upstream {@code GetMountedVolumesForPod})
     * @throws ConfigException {@code error DevicePath `dev` must be an absolute path}, or {@code cannot find volume "v"
     *     to pass into container "c"} when the volume is not mapped as a block volume
     */
    static List<Device> of(Container c, Map<String, VolumeInfo> volumes) throws ConfigException {
        List<Device> devices = new ArrayList<>();
        for (VolumeDevice device : c.getVolumeDevices() == null ? List.<VolumeDevice>of() : c.getVolumeDevices()) {
            String devicePath = device.getDevicePath() == null ? "" : device.getDevicePath();
            if (!devicePath.startsWith("/")) {
                throw new ConfigException("error DevicePath `" + devicePath + "` must be an absolute path");
            }
            VolumeInfo volume = volumes.get(device.getName());
            if (volume == null || volume.blockVolumeMapper() == null) {
                throw new ConfigException("cannot find volume \"" + device.getName() + "\" to pass into container \""
                        + c.getName() + "\"");
            }
            // Upstream's IsSymlinkExist: a volume whose link is not there (yet) gives no device.
            if (Files.isSymbolicLink(volume.path())) {
                devices.add(new Device(devicePath, volume.path().toString(), volume.readOnly() ? READ_ONLY : READ_WRITE));
            }
        }
        return devices;
    }
}
