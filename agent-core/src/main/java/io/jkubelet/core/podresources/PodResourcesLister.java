package io.jkubelet.core.podresources;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.cm.devicemanager.Device;
import io.jkubelet.core.cm.devicemanager.DeviceManager;
import io.jkubelet.core.podutil.PodSpecs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The v1 pod-resources server's answers (upstream {@code v1PodResourcesServer}): {@code List}, {@code Get} and
 * {@code GetAllocatableResources} over the pod manager's pods and the device manager. CPUs and memory are empty:
 * without the CPU and memory managers' static policies nothing is exclusive (upstream's {@code none} policies answer
 * the same). Thread-safe.
 */
public final class PodResourcesLister {
    /** Upstream's {@code KubeletPodResourcesGet} gate (alpha in v1.30, off by default). */
    public static final String GET_GATE = "KubeletPodResourcesGet";

    private final Supplier<List<Pod>> pods;
    private final DeviceManager devices;
    private final FeatureGates gates;

    /** @param pods the pod manager's pods (upstream's {@code podsProvider}) */
    public PodResourcesLister(Supplier<List<Pod>> pods, DeviceManager devices, FeatureGates gates) {
        this.pods = pods;
        this.devices = devices;
        this.gates = gates;
    }

    /** {@code List}: every pod the kubelet knows, after the devices of pods gone were freed. */
    public List<PodResourcesV1> list() {
        List<Pod> all = pods.get();
        devices.updateAllocatedDevices();
        return all.stream().map(this::podResources).toList();
    }

    /**
     * {@code Get}.
     *
     * @throws IllegalStateException upstream's "PodResources API Get method disabled" without its gate
     * @throws IllegalArgumentException upstream's "pod X in namespace Y not found"
     */
    public PodResourcesV1 get(String namespace, String name) {
        if (!gates.enabled(GET_GATE)) {
            throw new IllegalStateException("PodResources API Get method disabled");
        }
        return pods.get().stream()
                .filter(p -> name.equals(p.getMetadata().getName()) && namespace.equals(p.getMetadata().getNamespace()))
                .findFirst().map(this::podResources)
                .orElseThrow(() -> new IllegalArgumentException("pod " + name + " in namespace " + namespace + " not found"));
    }

    /** {@code GetAllocatableResources}: every healthy device of every registered resource. */
    public PodResourcesV1.Allocatable allocatable() {
        return new PodResourcesV1.Allocatable(containerDevices(devices.allocatableDevices()), List.of(), List.of());
    }

    private PodResourcesV1 podResources(Pod pod) {
        List<PodResourcesV1.ContainerResources> containers = new ArrayList<>();
        if (gates.enabled(FeatureGates.SIDECAR_CONTAINERS)) {
            for (Container c : PodSpecs.initContainers(pod)) {
                if (PodSpecs.isRestartableInitContainer(c)) {
                    containers.add(containerResources(pod, c));
                }
            }
        }
        PodSpecs.containers(pod).forEach(c -> containers.add(containerResources(pod, c)));
        return new PodResourcesV1(pod.getMetadata().getName(), pod.getMetadata().getNamespace(), containers);
    }

    private PodResourcesV1.ContainerResources containerResources(Pod pod, Container c) {
        return new PodResourcesV1.ContainerResources(c.getName(),
                containerDevices(devices.devices(pod.getMetadata().getUid(), c.getName())), List.of(), List.of());
    }

    /** Upstream {@code containerDevicesFromResourceDeviceInstances}: one entry per device and NUMA node. */
    static List<PodResourcesV1.ContainerDevices> containerDevices(Map<String, Map<String, Device>> byResource) {
        List<PodResourcesV1.ContainerDevices> out = new ArrayList<>();
        byResource.forEach((resource, byId) -> byId.forEach((id, device) -> {
            if (device.numaNodes() == null) {
                out.add(new PodResourcesV1.ContainerDevices(resource, List.of(id), null));
                return;
            }
            device.numaNodes().forEach(node -> out.add(new PodResourcesV1.ContainerDevices(resource, List.of(id), List.of(node))));
        }));
        return out;
    }
}
