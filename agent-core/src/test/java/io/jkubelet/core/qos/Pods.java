package io.jkubelet.core.qos;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small builders for pods with resources, for the QoS tests. */
final class Pods {

    private Pods() {
    }

    /** A container; {@code requests}/{@code limits} are "cpu=100m,memory=1Gi" or "". */
    static Container container(String name, String requests, String limits) {
        return new ContainerBuilder().withName(name).withImage("busybox")
                .withNewResources().withRequests(quantities(requests)).withLimits(quantities(limits)).endResources()
                .build();
    }

    static Container sidecar(String name, String requests, String limits) {
        Container c = container(name, requests, limits);
        c.setRestartPolicy("Always");
        return c;
    }

    static Pod pod(List<Container> containers, List<Container> initContainers) {
        return new PodBuilder().withNewMetadata().withName("p").withNamespace("default").endMetadata()
                .withNewSpec().withContainers(containers).withInitContainers(initContainers).endSpec()
                .build();
    }

    static Pod pod(Container... containers) {
        return pod(List.of(containers), List.of());
    }

    static Map<String, Quantity> quantities(String spec) {
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
