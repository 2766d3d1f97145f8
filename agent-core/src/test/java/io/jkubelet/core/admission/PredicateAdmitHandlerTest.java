package io.jkubelet.core.admission;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PredicateAdmitHandlerTest {
    private final PredicateAdmitHandler handler = new PredicateAdmitHandler();
    /** 1 cpu, 1 GiB, 10 GiB disk, 3 pods. */
    private final Node node = MachineNode.of("node-a", 3, 1, 1L << 30, 10L << 30);

    private static Container withRequests(String name, String cpu, String memory) {
        ContainerBuilder b = new ContainerBuilder().withName(name).withImage("busybox");
        if (cpu != null) {
            b.editOrNewResources().addToRequests("cpu", new Quantity(cpu)).endResources();
        }
        if (memory != null) {
            b.editOrNewResources().addToRequests("memory", new Quantity(memory)).endResources();
        }
        return b.build();
    }

    private static PodBuilder pod(String name, Container... containers) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .endMetadata().withNewSpec().withContainers(containers).endSpec();
    }

    private PodAdmitResult admit(Pod pod, Pod... others) {
        return handler.admit(pod, List.of(others), () -> node);
    }

    @Test
    void podThatFitsIsAdmitted() {
        assertThat(admit(pod("a", withRequests("c", "500m", "512Mi")).build(),
                pod("b", withRequests("c", "500m", "256Mi")).build()).admit()).isTrue();
    }

    @Test
    void aStandaloneNodeAdmitsAgainstCapacityLessWhatItReserves() {
        // 2 cpus, 4 GiB, with 500m and 1 GiB reserved (kubeReserved + systemReserved + eviction thresholds).
        Node reserved = MachineNode.of("node-a", 110, 2, 4L << 30, 10L << 30,
                capacity -> Map.of("cpu", new java.math.BigDecimal("0.5"), "memory", java.math.BigDecimal.valueOf(1L << 30)));

        assertThat(reserved.getStatus().getAllocatable()).containsEntry("cpu", new Quantity("1.5"))
                .containsEntry("memory", new Quantity(Long.toString(3L << 30)));
        assertThat(handler.admit(pod("big", withRequests("c", "1600m", null)).build(), List.of(), () -> reserved))
                .isEqualTo(PodAdmitResult.reject("OutOfcpu",
                        "Node didn't have enough resource: cpu, requested: 1600, used: 0, capacity: 1500"));
        assertThat(handler.admit(pod("fits", withRequests("c", "1500m", "3Gi")).build(), List.of(), () -> reserved).admit())
                .isTrue();
    }

    @Test
    void tooManyPodsIsOutOfpods() {
        Pod p = pod("d", withRequests("c", null, null)).build();
        PodAdmitResult r = admit(p, pod("a").build(), pod("b").build(), pod("c").build());
        assertThat(r).isEqualTo(PodAdmitResult.reject("OutOfpods",
                "Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3"));
    }

    @Test
    void cpuBeyondAllocatableMinusAdmittedRequestsIsOutOfcpu() {
        PodAdmitResult r = admit(pod("big", withRequests("c", "1", null)).build(),
                pod("other", withRequests("c", "500m", null)).build());
        assertThat(r).isEqualTo(PodAdmitResult.reject("OutOfcpu",
                "Node didn't have enough resource: cpu, requested: 1000, used: 500, capacity: 1000"));
    }

    @Test
    void memoryAndEphemeralStorage() {
        assertThat(admit(pod("m", withRequests("c", null, "2Gi")).build()))
                .isEqualTo(PodAdmitResult.reject("OutOfmemory",
                        "Node didn't have enough resource: memory, requested: 2147483648, used: 0, capacity: 1073741824"));
        Pod disk = pod("d", new ContainerBuilder().withName("c").withNewResources()
                .addToRequests("ephemeral-storage", new Quantity("11Gi")).endResources().build()).build();
        assertThat(admit(disk).reason()).isEqualTo("OutOfephemeral-storage");
    }

    @Test
    void initContainersCountByTheirMaximumAndSidecarsAndOverheadAdd() {
        // App containers 300m + 300m; a plain init container 900m: the pod needs max(600m, 900m) = 900m.
        Pod p = pod("i", withRequests("a", "300m", null), withRequests("b", "300m", null)).editSpec()
                .withInitContainers(withRequests("init", "900m", null)).endSpec().build();
        assertThat(ResourceRequests.of(p)).containsEntry("cpu", 900L);
        // A sidecar (restartPolicy Always) of 200m runs beside everything: 600 + 200 = 800 vs 900 + 200.
        Container sidecar = new ContainerBuilder(withRequests("side", "200m", null)).withRestartPolicy("Always").build();
        Pod withSidecar = new PodBuilder(p).editSpec().withInitContainers(sidecar, withRequests("init", "900m", null))
                .withOverhead(Map.of("cpu", new Quantity("50m"))).endSpec().build();
        assertThat(ResourceRequests.of(withSidecar)).containsEntry("cpu", 1150L);
        // 1150m on a 1-cpu node.
        assertThat(admit(withSidecar).message())
                .isEqualTo("Node didn't have enough resource: cpu, requested: 1150, used: 0, capacity: 1000");
    }

    @Test
    void unknownExtendedResourceIsIgnoredKnownOneIsChecked() {
        Pod gpu = pod("g", new ContainerBuilder().withName("c").withNewResources()
                .addToRequests("example.com/gpu", new Quantity("2")).endResources().build()).build();
        assertThat(admit(gpu).admit()).isTrue();
        Node withGpu = new NodeBuilder(node).editStatus().addToAllocatable("example.com/gpu", new Quantity("1"))
                .endStatus().build();
        assertThat(handler.admit(gpu, List.of(), () -> withGpu)).isEqualTo(PodAdmitResult.reject("OutOfexample.com/gpu",
                "Node didn't have enough resource: example.com/gpu, requested: 2, used: 0, capacity: 1"));
    }

    @Test
    void nodeSelectorAndRequiredAffinityMustMatchNodeLabels() {
        Pod selector = pod("s").editSpec().withNodeSelector(Map.of("disk", "ssd")).endSpec().build();
        assertThat(admit(selector)).isEqualTo(PodAdmitResult.reject("NodeAffinity",
                "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector"));
        Node labelled = new NodeBuilder(node).editMetadata().addToLabels("disk", "ssd").addToLabels("gen", "5")
                .endMetadata().build();
        assertThat(handler.admit(selector, List.of(), () -> labelled).admit()).isTrue();

        Pod affinity = pod("aff").editSpec().withNewAffinity().withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm().addToMatchExpressions(new NodeSelectorRequirementBuilder().withKey("gen")
                        .withOperator("Gt").withValues("6").build()).endNodeSelectorTerm()
                .addNewNodeSelectorTerm().addToMatchFields(new NodeSelectorRequirementBuilder().withKey("metadata.name")
                        .withOperator("In").withValues("node-b").build()).endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity().endSpec().build();
        assertThat(handler.admit(affinity, List.of(), () -> labelled).reason()).isEqualTo("NodeAffinity");
        Pod second = new PodBuilder(affinity).editSpec().editAffinity().editNodeAffinity()
                .editRequiredDuringSchedulingIgnoredDuringExecution().addNewNodeSelectorTerm()
                .addToMatchExpressions(new NodeSelectorRequirementBuilder().withKey("disk").withOperator("In")
                        .withValues("hdd", "ssd").build()).endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity().endSpec().build();
        assertThat(handler.admit(second, List.of(), () -> labelled).admit()).isTrue();
    }

    @Test
    void hostPortInUseIsNodePorts() {
        Container web = new ContainerBuilder().withName("c").withPorts(new ContainerPortBuilder().withContainerPort(80)
                .withHostPort(8080).build()).build();
        Container udp = new ContainerBuilder().withName("c").withPorts(new ContainerPortBuilder().withContainerPort(80)
                .withHostPort(8080).withProtocol("UDP").build()).build();
        Container onIp = new ContainerBuilder().withName("c").withPorts(new ContainerPortBuilder().withContainerPort(80)
                .withHostPort(8080).withHostIP("10.0.0.1").build()).build();
        assertThat(admit(pod("b", web).build(), pod("a", web).build())).isEqualTo(PodAdmitResult.reject("NodePorts",
                "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports"));
        assertThat(admit(pod("b", udp).build(), pod("a", web).build()).admit()).isTrue();
        // 0.0.0.0 holds the port on every address.
        assertThat(admit(pod("b", onIp).build(), pod("a", web).build()).reason()).isEqualTo("NodePorts");
        Container otherIp = new ContainerBuilder(onIp).editFirstPort().withHostIP("10.0.0.2").endPort().build();
        assertThat(admit(pod("b", otherIp).build(), pod("a", onIp).build()).admit()).isTrue();
    }

    @Test
    void untoleratedNoExecuteTaintRejectsOnlyApiPods() {
        Node tainted = new NodeBuilder(node).editSpec().addToTaints(
                new TaintBuilder().withKey("dedicated").withValue("db").withEffect("NoExecute").build(),
                new TaintBuilder().withKey("other").withEffect("NoSchedule").build()).endSpec().build();
        Pod p = pod("t").build();
        assertThat(handler.admit(p, List.of(), () -> tainted)).isEqualTo(PodAdmitResult.reject("TaintToleration",
                "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate"));
        Pod tolerating = new PodBuilder(p).editSpec().addToTolerations(new TolerationBuilder().withKey("dedicated")
                .withOperator("Equal").withValue("db").withEffect("NoExecute").build()).endSpec().build();
        assertThat(handler.admit(tolerating, List.of(), () -> tainted).admit()).isTrue();
        Pod wrongValue = new PodBuilder(p).editSpec().addToTolerations(new TolerationBuilder().withKey("dedicated")
                .withValue("web").build()).endSpec().build();
        assertThat(handler.admit(wrongValue, List.of(), () -> tainted).reason()).isEqualTo("TaintToleration");
        Pod staticPod = new PodBuilder(p).editMetadata().addToAnnotations("kubernetes.io/config.source", "file")
                .endMetadata().build();
        assertThat(handler.admit(staticPod, List.of(), () -> tainted).admit()).isTrue();
    }

    @Test
    void nodeNameAndOsAndMissingNode() {
        assertThat(admit(pod("n").editSpec().withNodeName("node-b").endSpec().build())).isEqualTo(PodAdmitResult.reject(
                "NodeName", "Predicate NodeName failed: node(s) didn't match the requested node name"));
        assertThat(admit(pod("w").editMetadata().addToLabels("kubernetes.io/os", "windows").endMetadata().build()))
                .isEqualTo(PodAdmitResult.reject("PodOSSelectorNodeLabelDoesNotMatch",
                        "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label"));
        assertThat(admit(pod("w").editSpec().withNewOs("windows").endSpec().build()).reason()).isEqualTo("PodOSNotSupported");
        assertThat(handler.admit(pod("x").build(), List.of(), () -> {
            throw new IllegalStateException("no node yet");
        })).isEqualTo(PodAdmitResult.reject("InvalidNodeInfo", "Kubelet cannot get node info."));
    }

    @Test
    void firstFailureWinsResourcesBeforeAffinity() {
        Pod p = pod("both", withRequests("c", "2", null)).editSpec().withNodeSelector(Map.of("x", "y")).endSpec().build();
        assertThat(admit(p).reason()).isEqualTo("OutOfcpu");
    }
}
