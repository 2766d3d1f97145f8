package io.jkubelet.core.testing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;

import java.util.List;

/** Small pod fixtures for core tests. */
public final class Pods {
    private Pods() {}

    public static Container container(String name) {
        return new ContainerBuilder().withName(name).withImage("busybox:1.36").withImagePullPolicy("IfNotPresent")
                .withCommand("sh", "-c", name).build();
    }

    public static Pod pod(String name, String restartPolicy, List<Container> init, List<Container> containers) {
        return new PodBuilder()
                .withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .addToAnnotations("kubernetes.io/config.source", "file").endMetadata()
                .withNewSpec().withRestartPolicy(restartPolicy).withInitContainers(init).withContainers(containers)
                .withTerminationGracePeriodSeconds(30L).endSpec()
                .build();
    }

    public static Pod pod(String name, Container... containers) {
        return pod(name, "Always", List.of(), List.of(containers));
    }
}
