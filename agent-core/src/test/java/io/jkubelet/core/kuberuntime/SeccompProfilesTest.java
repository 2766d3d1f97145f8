package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.jkubelet.core.runtime.LinuxContainerSecurityContext;
import io.jkubelet.core.runtime.SecurityProfile;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which seccomp profile a container gets, as upstream's getSeccompProfile, and how its config carries it. */
class SeccompProfilesTest {
    private static final Path ROOT = Path.of("/var/lib/jk");
    private static final SeccompProfiles PLAIN = SeccompProfiles.under(ROOT, false);
    private static final SeccompProfiles SECCOMP_DEFAULT = SeccompProfiles.under(ROOT, true);

    @Test
    void withoutAProfileAContainerIsUnconfinedUnlessSeccompDefaultIsOn() {
        Container c = container(null);

        assertThat(PLAIN.forContainer(pod(null, c), c)).isEqualTo(SecurityProfile.UNCONFINED);
        assertThat(SECCOMP_DEFAULT.forContainer(pod(null, c), c)).isEqualTo(SecurityProfile.RUNTIME_DEFAULT);
    }

    @Test
    void theContainersProfileWinsOverThePodsAndThePodsOverSeccompDefault() {
        Container unconfined = container(profile("Unconfined", null));
        Container plain = container(null);

        assertThat(SECCOMP_DEFAULT.forContainer(pod(profile("RuntimeDefault", null), unconfined), unconfined))
                .isEqualTo(SecurityProfile.UNCONFINED);
        assertThat(PLAIN.forContainer(pod(profile("RuntimeDefault", null), plain), plain))
                .isEqualTo(SecurityProfile.RUNTIME_DEFAULT);
        assertThat(SECCOMP_DEFAULT.forContainer(pod(profile("Unconfined", null), plain), plain))
                .isEqualTo(SecurityProfile.UNCONFINED);
    }

    @Test
    void aLocalhostProfileIsAFileUnderTheRootDirectorysSeccompDirectory() {
        Container c = container(profile("Localhost", "profiles/audit.json"));

        assertThat(PLAIN.forContainer(pod(null, c), c))
                .isEqualTo(SecurityProfile.localhost("/var/lib/jk/seccomp/profiles/audit.json"));
    }

    @Test
    void aLocalhostProfileWithoutAFileIsRefusedAsTheContainersConfigError() {
        Container c = container(profile("Localhost", null));
        Pod pod = pod(null, c);

        assertThatThrownBy(() -> PLAIN.forContainer(pod, c)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("localhostProfile must be set if seccompProfile type is Localhost.");
        ContainerConfigFactory factory = factory(PLAIN);
        assertThatThrownBy(() -> factory.containerConfig(pod, c, 0, "10.0.0.1", Map.of(), null, null, ImageUser.ROOT))
                .isInstanceOf(ContainerConfigFactory.ConfigException.class)
                .hasMessage("localhostProfile must be set if seccompProfile type is Localhost.");
    }

    @Test
    void theContainerConfigCarriesTheProfileAndTheSandboxRunsUnderTheRuntimesDefault() throws Exception {
        Container c = container(profile("Localhost", "deny.json"));
        Pod pod = pod(null, c);
        ContainerConfigFactory factory = factory(SECCOMP_DEFAULT);

        LinuxContainerSecurityContext sc = factory.containerConfig(pod, c, 0, "10.0.0.1", Map.of(), null, null, ImageUser.ROOT)
                .securityContext();

        assertThat(sc.seccomp()).isEqualTo(SecurityProfile.localhost("/var/lib/jk/seccomp/deny.json"));
        assertThat(factory(PLAIN).sandboxConfig(pod, 0).seccomp()).isEqualTo(SecurityProfile.RUNTIME_DEFAULT);
    }

    private static ContainerConfigFactory factory(SeccompProfiles seccomp) {
        NodeContext node = new NodeContext("node-a", List.of("192.168.1.10"), Path.of("/var/log/pods"),
                Path.of("/var/log/containers"), "jkubelet/pause:3.9", List.of(), "cluster.local", x -> x);
        return new ContainerConfigFactory(node, (p, x) -> 0, io.jkubelet.core.objects.PodObjects.standalone(),
                (r, t, re, m) -> { }, Map::of, ContainerCgroups.DEFAULT, seccomp);
    }

    private static SeccompProfile profile(String type, String file) {
        return new SeccompProfile(file, type);
    }

    private static Container container(SeccompProfile profile) {
        ContainerBuilder b = new ContainerBuilder().withName("app").withImage("busybox");
        if (profile != null) {
            b.withNewSecurityContext().withSeccompProfile(profile).endSecurityContext();
        }
        return b.build();
    }

    private static Pod pod(SeccompProfile podProfile, Container c) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("web").withNamespace("prod").withUid("u1")
                .endMetadata().withNewSpec().withContainers(c).endSpec();
        if (podProfile != null) {
            b.editSpec().withNewSecurityContext().withSeccompProfile(podProfile).endSecurityContext().endSpec();
        }
        return b.build();
    }
}
