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
 * {@code GetAllocatableResources} over the pod manager's pods, the device manager, the CPU manager's exclusive CPUs
 * and the memory manager's pinned memory. Thread-safe.
 */
public final class PodResourcesLister {
    /** Upstream's {@code KubeletPodResourcesGet} gate (alpha in v1.30, off by default). */
    public static final String GET_GATE = "KubeletPodResourcesGet";

    private final Supplier<List<Pod>> pods;
    private final DeviceManager devices;
    private final CpusProvider cpus;
    private final MemoryProvider memory;
    private final FeatureGates gates;

    /** @param pods the pod manager's pods (upstream's {@code podsProvider}) */
    public PodResourcesLister(Supplier<List<Pod>> pods, DeviceManager devices, CpusProvider cpus, MemoryProvider memory,
                              FeatureGates gates) {
        this.pods = pods;
        this.devices = devices;
        this.cpus = cpus;
        this.memory = memory;
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

    /**
     * {@code GetAllocatableResources}: every healthy device of every registered resource, the CPUs that may be
     * exclusive and each NUMA node's allocatable memory.
     */
    public PodResourcesV1.Allocatable allocatable() {
        return new PodResourcesV1.Allocatable(containerDevices(devices.allocatableDevices()), cpus.allocatableCpus(),
                memory.allocatableMemory());
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

    /** Upstream {@code getContainerResources}: the container's devices, exclusive CPUs and pinned memory. */
    private PodResourcesV1.ContainerResources containerResources(Pod pod, Container c) {
        String uid = pod.getMetadata().getUid();
        return new PodResourcesV1.ContainerResources(c.getName(), containerDevices(devices.devices(uid, c.getName())),
                cpus.cpus(uid, c.getName()), memory.memory(uid, c.getName()));
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
