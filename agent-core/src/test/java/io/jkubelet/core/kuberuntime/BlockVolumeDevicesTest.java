package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.runtime.Device;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volumemanager.MappedBlockVolumes;
import io.jkubelet.core.volumemanager.VolumeInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Upstream's {@code makeBlockVolumes}: a container's {@code volumeDevices} reach the runtime as devices after the
 * device manager's, each at its {@code devicePath}, from the pod's link to the mapped device.
 */
class BlockVolumeDevicesTest {
    @TempDir Path tmp;
    private final NodeContext node = new NodeContext("node-a", List.of("192.168.1.10"), Path.of("/var/log/pods"),
            Path.of("/var/log/containers"), "jkubelet/pause:3.9", List.of(), "cluster.local", x -> Math.max(x, 0));

    private static Pod pod(Container c) {
        return new PodBuilder().withNewMetadata().withName("db").withNamespace("default").withUid("u1").endMetadata()
                .withNewSpec().withContainers(c).endSpec().build();
    }

    private VolumeInfo linked(String name, boolean readOnly) throws Exception {
        return MappedBlockVolumes.linked(tmp, name, "/dev/loop7", readOnly);
    }

    @Test
    void eachVolumeDeviceIsTheLinkToTheMappedDeviceAfterTheDeviceManagersDevices() throws Exception {
        Container c = new ContainerBuilder().withName("db").withImage("busybox")
                .addNewVolumeDevice().withName("data").withDevicePath("/dev/xvda").endVolumeDevice()
                .addNewVolumeDevice().withName("logs").withDevicePath("/dev/xvdb").endVolumeDevice().build();
        Device gpu = new Device("/dev/gpu0", "/dev/nvidia0", "rw");
        ContainerConfigFactory factory = new ContainerConfigFactory(node, (p, x) -> 0,
                io.jkubelet.core.objects.PodObjects.standalone(), (o, t, r, m) -> { }, Map::of,
                ContainerCgroups.DEFAULT, SeccompProfiles.under(tmp, false),
                (p, x) -> new RunContainerOptions(List.of(), List.of(), List.of(gpu), Map.of(), List.of()));

        List<Device> devices = factory.containerConfig(pod(c), c, 0, "10.0.0.2",
                Map.of("data", linked("data", false), "logs", linked("logs", true)), null, null, ImageUser.ROOT).devices();

        assertThat(devices).containsExactly(gpu,
                new Device("/dev/xvda", tmp.resolve("data").toString(), "mrw"),
                new Device("/dev/xvdb", tmp.resolve("logs").toString(), "r"));
    }

    @Test
    void aRelativeDevicePathOrAVolumeThatIsNotAMappedBlockVolumeFailsTheContainersConfigAsUpstream() throws Exception {
        Container relative = new ContainerBuilder().withName("db").withImage("busybox")
                .addNewVolumeDevice().withName("data").withDevicePath("dev/xvda").endVolumeDevice().build();
        assertThatThrownBy(() -> BlockVolumeDevices.of(relative, Map.of("data", linked("data", false))))
                .hasMessage("error DevicePath `dev/xvda` must be an absolute path");

        Container mountedAsFs = new ContainerBuilder().withName("db").withImage("busybox")
                .addNewVolumeDevice().withName("cache").withDevicePath("/dev/xvda").endVolumeDevice().build();
        assertThatThrownBy(() -> BlockVolumeDevices.of(mountedAsFs, Map.of("cache",
                new VolumeInfo("cache", "cache", tmp, false, VolumeMetrics.DU, null, true))))
                .hasMessage("cannot find volume \"cache\" to pass into container \"db\"");
        assertThatThrownBy(() -> BlockVolumeDevices.of(mountedAsFs, Map.of()))
                .hasMessage("cannot find volume \"cache\" to pass into container \"db\"");
    }

    @Test
    void aMappedVolumeWhoseLinkIsNotThereGivesNoDeviceAsUpstream() throws Exception {
        Container c = new ContainerBuilder().withName("db").withImage("busybox")
                .addNewVolumeDevice().withName("data").withDevicePath("/dev/xvda").endVolumeDevice().build();
        assertThat(BlockVolumeDevices.of(c, Map.of("data", VolumeInfo.ofBlock("data", "data", MappedBlockVolumes.mapper(tmp, "data", "/dev/loop7"),
                false, null))))
                .isEmpty();
    }
}
