package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.kuberuntime.ContainerConfigFactory.ConfigException;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volumemanager.VolumeInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ContainerMountsTest {
    @TempDir
    Path dir;

    private List<Mount> mounts(String propagation) throws ConfigException {
        Container c = new ContainerBuilder().withName("app").addNewVolumeMount().withName("data").withMountPath("/data")
                .withMountPropagation(propagation).endVolumeMount().build();
        Pod pod = new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewSpec().withContainers(c).endSpec().build();
        return ContainerMounts.of(pod, c, Map.of("data", new VolumeInfo("data", dir, false, VolumeMetrics.DU, null, true)),
                null, null, null, Map.of());
    }

    @Test
    void eachModeIsTheRuntimesPropagation() throws Exception {
        assertThat(mounts(null).getFirst().propagation()).isEqualTo("private");
        assertThat(mounts("None").getFirst().propagation()).isEqualTo("private");
        assertThat(mounts("HostToContainer").getFirst().propagation()).isEqualTo("rslave");
        assertThat(mounts("Bidirectional").getFirst().propagation()).isEqualTo("rshared");
    }

    @Test
    void anUnknownModeIsAnErrorNotAPrivateMount() {
        assertThatThrownBy(() -> mounts("Shared")).isInstanceOf(ConfigException.class)
                .hasMessage("invalid MountPropagation mode: \"Shared\"");
    }
}
