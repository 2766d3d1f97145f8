package io.jkubelet.core.testing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    /** A container with resources; {@code requests}/{@code limits} are "cpu=100m,memory=1Gi" or "". */
    public static Container container(String name, String requests, String limits) {
        return new ContainerBuilder().withName(name).withImage("busybox")
                .withNewResources().withRequests(quantities(requests)).withLimits(quantities(limits)).endResources()
                .build();
    }

    /** An init container with {@code restartPolicy: Always}. */
    public static Container sidecar(String name, String requests, String limits) {
        Container c = container(name, requests, limits);
        c.setRestartPolicy("Always");
        return c;
    }

    /** A pod named {@code p} with these containers and init containers. */
    public static Pod pod(List<Container> containers, List<Container> initContainers) {
        return new PodBuilder().withNewMetadata().withName("p").withNamespace("default").withUid("uid-p").endMetadata()
                .withNewSpec().withContainers(containers).withInitContainers(initContainers).endSpec()
                .build();
    }

    public static Pod pod(Container... containers) {
        return pod(List.of(containers), List.of());
    }

    /** "cpu=100m,memory=1Gi" as a resource list; "" is empty. */
    public static Map<String, Quantity> quantities(String spec) {
        Map<String, Quantity> out = new LinkedHashMap<>();
        if (spec.isBlank()) {
            return out;
        }
        for (String pair : spec.split(",")) {
            String[] kv = pair.split("=", 2);
            out.put(kv[0].trim(), new Quantity(kv[1].trim()));
        }
        return out;
    }
}
