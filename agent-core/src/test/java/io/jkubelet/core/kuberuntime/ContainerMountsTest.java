package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jkubelet.core.kuberuntime.ContainerConfigFactory.ConfigException;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.volume.PodDirs;
import io.jkubelet.core.volume.VolumeMetrics;
import io.jkubelet.core.volume.util.LinuxMounts;
import io.jkubelet.core.volume.util.subpath.MountTable;
import io.jkubelet.core.volume.util.subpath.Subpather;
import io.jkubelet.core.volumemanager.VolumeInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A container's mounts as upstream's {@code makeMounts} gives them to the runtime: each volume's path, a subPath as a
 * bind mount of its own under the pod's directory (real mounts), never a path a symlink in the volume leads out of.
 */
class ContainerMountsTest {
    @TempDir
    Path dir;
    private final Subpather subpather = new Subpather(new LinuxMounts());

    @AfterEach
    void unmountLeftovers() throws Exception {
        if (dir != null && Files.isReadable(Path.of("/proc/self/mountinfo"))) {
            MountTable.unmountAll(dir);
        }
    }

    private ContainerMounts containerMounts() {
        return new ContainerMounts(new PodDirs(dir.resolve("root")), subpather);
    }

    private Path volume() throws Exception {
        return Files.createDirectories(dir.resolve("root/pods/u1/volumes/kubernetes.io~empty-dir/data"));
    }

    private List<Mount> mounts(Container c, Path volume) throws ConfigException {
        Pod pod = new PodBuilder().withNewMetadata().withName("p").withUid("u1").endMetadata().withNewSpec()
                .withContainers(c).endSpec().build();
        return containerMounts().makeMounts(pod, c, Map.of("data", new VolumeInfo("data", "data", volume, false,
                VolumeMetrics.DU, null, true)), null, null, null, Map.of());
    }

    private List<Mount> mounts(String propagation) throws Exception {
        Container c = new ContainerBuilder().withName("app").addNewVolumeMount().withName("data").withMountPath("/data")
                .withMountPropagation(propagation).endVolumeMount().build();
        return mounts(c, volume());
    }

    private static Container withSubPath(String subPath) {
        return new ContainerBuilder().withName("app")
                .addNewVolumeMount().withName("data").withMountPath("/data").endVolumeMount()
                .addNewVolumeMount().withName("data").withMountPath("/etc/app").withSubPath(subPath).endVolumeMount()
                .build();
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

    @Test
    void aSubPathIsGivenToTheRuntimeAsItsOwnBindMountUnderThePodsDirectory() throws Exception {
        MountTable.assumeCanMount();
        Path volume = volume();
        Files.writeString(Files.createDirectories(volume.resolve("conf")).resolve("app.yaml"), "port: 80");

        List<Mount> mounts = mounts(withSubPath("conf"), volume);

        Path target = dir.resolve("root/pods/u1/volume-subpaths/data/app/1");
        assertThat(mounts).containsExactly(new Mount("/data", volume.toString(), false),
                new Mount("/etc/app", target.toString(), false));
        assertThat(target.resolve("app.yaml")).hasContent("port: 80");
        // The container's restart: the same mount, not a second one.
        assertThat(mounts(withSubPath("conf"), volume)).isEqualTo(mounts);
        assertThat(MountTable.at(target)).hasSize(1);
    }

    @Test
    void aSubPathThatIsASymlinkOutOfTheVolumeFailsTheContainerWithoutNamingHostPaths() throws Exception {
        MountTable.assumeCanMount();
        Path volume = volume();
        // What a container that writes to the volume can leave for the next one: its subPath to the host's root.
        Files.createSymbolicLink(volume.resolve("conf"), Path.of("/"));

        assertThatThrownBy(() -> mounts(withSubPath("conf"), volume)).isInstanceOf(ConfigException.class)
                .hasMessage("failed to prepare subPath for volumeMount \"data\" of container \"app\"");
        assertThat(MountTable.below(dir)).isEmpty();
    }

    @Test
    void aMissingSubPathBelowASymlinkOutOfTheVolumeIsNotMade() throws Exception {
        Path volume = volume();
        Path host = Files.createDirectories(dir.resolve("host"));
        Files.createSymbolicLink(volume.resolve("conf"), host);

        assertThatThrownBy(() -> mounts(withSubPath("conf/app"), volume)).isInstanceOf(ConfigException.class)
                .hasMessage("failed to create subPath directory for volumeMount \"data\" of container \"app\"");
        assertThat(host).isEmptyDirectory();
    }

    @Test
    void aSubPathMayNotBeAbsoluteNorClimb() throws Exception {
        Path volume = volume();
        assertThatThrownBy(() -> mounts(withSubPath("/etc"), volume))
                .hasMessage("error SubPath `/etc` must not be an absolute path");
        assertThatThrownBy(() -> mounts(withSubPath("a/../../etc"), volume))
                .hasMessage("unable to provision SubPath `a/../../etc`: must not contain '..'");
    }
}
