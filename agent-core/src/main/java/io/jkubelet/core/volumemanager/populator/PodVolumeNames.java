package io.jkubelet.core.volumemanager.populator;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeDevice;
import io.fabric8.kubernetes.api.model.VolumeMount;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Upstream {@code GetPodVolumeNames}: the volumes a pod's containers (init, app and ephemeral) mount as file systems and
 * those they take as block devices. A volume no container uses is never mounted.
 */
public record PodVolumeNames(Set<String> mounts, Set<String> devices) {
    public static PodVolumeNames of(Pod pod) {
        Set<String> mounts = new TreeSet<>();
        Set<String> devices = new TreeSet<>();
        if (pod.getSpec() == null) {
            return new PodVolumeNames(mounts, devices);
        }
        for (List<Container> list : List.of(nullToEmpty(pod.getSpec().getInitContainers()),
                nullToEmpty(pod.getSpec().getContainers()))) {
            for (Container c : list) {
                add(c.getVolumeMounts(), c.getVolumeDevices(), mounts, devices);
            }
        }
        for (EphemeralContainer c : nullToEmpty(pod.getSpec().getEphemeralContainers())) {
            add(c.getVolumeMounts(), c.getVolumeDevices(), mounts, devices);
        }
        return new PodVolumeNames(mounts, devices);
    }

    /** Every volume the containers use, sorted. */
    public Set<String> all() {
        Set<String> all = new TreeSet<>(mounts);
        all.addAll(devices);
        return all;
    }

    private static void add(List<VolumeMount> vms, List<VolumeDevice> vds, Set<String> mounts, Set<String> devices) {
        nullToEmpty(vms).forEach(m -> mounts.add(m.getName()));
        nullToEmpty(vds).forEach(d -> devices.add(d.getName()));
    }

    private static <T> List<T> nullToEmpty(List<T> l) {
        return l == null ? List.of() : l;
    }
}
