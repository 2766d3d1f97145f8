package io.jkubelet.docker;

import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DockerNamesAndLabelsTest {

    private final PodSandboxMetadata pod = new PodSandboxMetadata("web-0", "0b5e0c1e-9f5a-4e1a-8d0e-3c2f1b7a9d10",
            "default", 2);

    @Test
    void namesAreDockershims() {
        assertThat(DockerNames.sandboxName(pod)).isEqualTo("k8s_POD_web-0_default_0b5e0c1e-9f5a-4e1a-8d0e-3c2f1b7a9d10_2");
        assertThat(DockerNames.containerName(pod, new ContainerMetadata("nginx", 5)))
                .isEqualTo("k8s_nginx_web-0_default_0b5e0c1e-9f5a-4e1a-8d0e-3c2f1b7a9d10_5");
    }

    @Test
    void namesParseBackWithDockersSlashAndDockershimsRandomSuffix() {
        assertThat(DockerNames.parseSandboxName("/" + DockerNames.sandboxName(pod))).contains(pod);
        assertThat(DockerNames.parseContainerName("/k8s_nginx_web-0_default_uid_5_1a2b3c4d"))
                .contains(new ContainerMetadata("nginx", 5));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/registry", "/k8s_a_b_c_d", "/k8s_a_b_c_d_e", "/k9s_a_b_c_d_1", "/k8s_a_b_c_d_1_x_y"})
    void namesThatAreNotTheKubeletsDoNotParse(String name) {
        assertThat(DockerNames.parseContainerName(name)).isEmpty();
        assertThat(DockerNames.parseSandboxName(name)).isEmpty();
    }

    @Test
    void annotationsTravelAsPrefixedLabelsAndComeBackWithoutTheShimsOwnLabels() {
        Map<String, String> labels = Map.of("io.kubernetes.pod.name", "web-0", "app", "web");
        Map<String, String> annotations = Map.of("io.kubernetes.container.hash", "1a2b", "note", "x=y");

        Map<String, String> docker = DockerLabels.forContainer(labels, annotations, "sandbox-id", "/var/log/pods/x/0.log");

        assertThat(docker).containsEntry("annotation.io.kubernetes.container.hash", "1a2b")
                .containsEntry("annotation.note", "x=y")
                .containsEntry("io.kubernetes.docker.type", "container")
                .containsEntry("io.kubernetes.sandbox.id", "sandbox-id")
                .containsEntry("io.kubernetes.container.logpath", "/var/log/pods/x/0.log");
        DockerLabels.Extracted back = DockerLabels.extract(docker);
        assertThat(back.labels()).isEqualTo(labels);
        assertThat(back.annotations()).isEqualTo(annotations);
    }

    @Test
    void aSandboxsContainerNameLabelIsTheShimsAndIsNotGivenBack() {
        Map<String, String> docker = DockerLabels.forSandbox(Map.of("app", "web"), Map.of());

        assertThat(docker).containsEntry("io.kubernetes.container.name", "POD")
                .containsEntry("io.kubernetes.docker.type", "podsandbox");
        assertThat(DockerLabels.extract(docker).labels()).isEqualTo(Map.of("app", "web"));
    }
}
