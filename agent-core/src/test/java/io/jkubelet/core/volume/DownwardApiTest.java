package io.jkubelet.core.volume;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceFieldSelector;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DownwardApiTest {
    private final Pod pod = new PodBuilder().withNewMetadata().withName("web").withNamespace("shop").withUid("u-1")
            .withLabels(new TreeMap<>(Map.of("zone", "b", "app", "web")))
            .withAnnotations(Map.of("note", "say \"hi\"\nbye")).endMetadata()
            .withNewSpec().withNodeName("n1").withServiceAccountName("builder")
            .addNewContainer().withName("c").withNewResources()
            .withLimits(Map.of("cpu", new Quantity("250m"), "memory", new Quantity("64Mi")))
            .withRequests(Map.of("memory", new Quantity("32Mi"))).endResources().endContainer()
            .addNewContainer().withName("bare").endContainer().endSpec()
            .withNewStatus().withPodIP("10.0.0.7").endStatus().build();

    @Test
    void labelsAndAnnotationsAreSortedGoQuotedLines() {
        assertThat(DownwardApi.fieldValue(pod, "metadata.labels", "n", List.of())).isEqualTo("app=\"web\"\nzone=\"b\"");
        assertThat(DownwardApi.fieldValue(pod, "metadata.annotations", "n", List.of()))
                .isEqualTo("note=\"say \\\"hi\\\"\\nbye\"");
        assertThat(DownwardApi.fieldValue(pod, "metadata.labels['zone']", "n", List.of())).isEqualTo("b");
    }

    @Test
    void podFields() {
        assertThat(DownwardApi.fieldValue(pod, "metadata.name", "n", List.of())).isEqualTo("web");
        assertThat(DownwardApi.fieldValue(pod, "metadata.namespace", "n", List.of())).isEqualTo("shop");
        assertThat(DownwardApi.fieldValue(pod, "metadata.uid", "n", List.of())).isEqualTo("u-1");
        assertThat(DownwardApi.fieldValue(pod, "spec.nodeName", "n", List.of())).isEqualTo("n1");
        assertThat(DownwardApi.fieldValue(pod, "spec.serviceAccountName", "n", List.of())).isEqualTo("builder");
        assertThat(DownwardApi.fieldValue(pod, "status.podIP", "n", List.of("192.168.1.5"))).isEqualTo("10.0.0.7");
        assertThat(DownwardApi.fieldValue(pod, "status.hostIP", "n", List.of("192.168.1.5"))).isEqualTo("192.168.1.5");
        assertThatThrownBy(() -> DownwardApi.fieldValue(pod, "spec.bogus", "n", List.of()))
                .hasMessage("unsupported fieldPath \"spec.bogus\"");
    }

    @Test
    void resourcesAreDividedAndRoundedUp() {
        assertThat(DownwardApi.resourceValue(pod, sel("limits.cpu", null), Map.of())).isEqualTo("1");
        assertThat(DownwardApi.resourceValue(pod, sel("limits.cpu", "1m"), Map.of())).isEqualTo("250");
        assertThat(DownwardApi.resourceValue(pod, sel("limits.memory", "1Mi"), Map.of())).isEqualTo("64");
        assertThat(DownwardApi.resourceValue(pod, sel("requests.memory", null), Map.of())).isEqualTo("33554432");
    }

    @Test
    void limitsAContainerDoesNotSetAreTheNodesAllocatable() {
        Map<String, Quantity> allocatable = Map.of("cpu", new Quantity("1500m"), "memory", new Quantity("3Gi"),
                "ephemeral-storage", new Quantity("10Gi"));
        ResourceFieldSelector cpu = sel("limits.cpu", null);
        cpu.setContainerName("bare");
        ResourceFieldSelector memory = sel("limits.memory", "1Mi");
        memory.setContainerName("bare");
        ResourceFieldSelector storage = sel("limits.ephemeral-storage", "1Gi");
        storage.setContainerName("bare");
        ResourceFieldSelector request = sel("requests.memory", null);
        request.setContainerName("bare");
        assertThat(DownwardApi.resourceValue(pod, cpu, allocatable)).isEqualTo("2");
        assertThat(DownwardApi.resourceValue(pod, memory, allocatable)).isEqualTo("3072");
        assertThat(DownwardApi.resourceValue(pod, storage, allocatable)).isEqualTo("10");
        // Requests have no such default.
        assertThat(DownwardApi.resourceValue(pod, request, allocatable)).isEqualTo("0");
        // A limit the container sets wins.
        assertThat(DownwardApi.resourceValue(pod, sel("limits.cpu", "1m"), allocatable)).isEqualTo("250");
    }

    private static ResourceFieldSelector sel(String res, String divisor) {
        ResourceFieldSelector s = new ResourceFieldSelector();
        s.setContainerName("c");
        s.setResource(res);
        if (divisor != null) {
            s.setDivisor(new Quantity(divisor));
        }
        return s;
    }
}
