package io.jkubelet.core.nodestatus;

import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.DaemonEndpoint;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.NodeDaemonEndpoints;
import io.fabric8.kubernetes.api.model.NodeSystemInfo;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.cm.devicemanager.DeviceCapacity;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.runtime.RuntimeVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Computes the node's status in place (upstream {@code defaultNodeStatusFuncs}, in its order): addresses,
 * machine info with capacity and allocatable, version info, daemon endpoints, images, OS and architecture,
 * then the MemoryPressure, DiskPressure, PIDPressure and Ready conditions, then the volumes in use. A setter that fails is logged and
 * the others still run, as upstream does. Not thread-safe: one caller (the status loop) at a time.
 */
public final class NodeStatusSetters {
    private static final Logger log = LoggerFactory.getLogger(NodeStatusSetters.class);
    /** Upstream {@code MaxNamesPerImageInNodeStatus}. */
    static final int MAX_NAMES_PER_IMAGE = 5;

    private final NodeIdentity identity;
    private final Supplier<MachineInfo> machine;
    private final RuntimeService runtime;
    private final ImageService images;
    private final KubeletConfiguration config;
    private final NodeHealth health;
    private final Clock clock;
    private final BiConsumer<String, String> recordEvent;
    /** Upstream's {@code devicePluginResourceCapacityFunc}: the device manager's {@code GetCapacity}. */
    private final Supplier<DeviceCapacity> devicePlugins;
    private final NodeVolumes volumes;

    public NodeStatusSetters(NodeIdentity identity, Supplier<MachineInfo> machine, RuntimeService runtime,
            ImageService images, KubeletConfiguration config, NodeHealth health, Clock clock, EventRecorder recorder) {
        this(identity, machine, runtime, images, config, health, clock, recorder, () -> DeviceCapacity.NONE,
                NodeVolumes.NONE);
    }

    /**
     * @param devicePlugins the device plugins' resources, asked at each status (it forgets resources gone for good)
     * @param volumes the volume manager's volumes in use
     */
    public NodeStatusSetters(NodeIdentity identity, Supplier<MachineInfo> machine, RuntimeService runtime,
            ImageService images, KubeletConfiguration config, NodeHealth health, Clock clock, EventRecorder recorder,
            Supplier<DeviceCapacity> devicePlugins, NodeVolumes volumes) {
        this.devicePlugins = devicePlugins;
        this.volumes = volumes;
        this.identity = identity;
        this.machine = machine;
        this.runtime = runtime;
        this.images = images;
        this.config = config;
        this.health = health;
        this.clock = clock;
        var nodeRef = new ObjectReferenceBuilder().withKind("Node").withName(identity.nodeName())
                .withUid(identity.nodeName()).build();
        this.recordEvent = (type, reason) -> recorder.event(nodeRef, type, reason,
                "Node " + identity.nodeName() + " status is now: " + reason);
    }

    /** Upstream {@code setNodeStatus}: runs every setter on {@code node}. */
    public void setNodeStatus(Node node) {
        NodeConditions.status(node);
        run("NodeAddress", () -> addresses(node));
        run("MachineInfo", () -> machineInfo(node));
        run("VersionInfo", () -> versionInfo(node));
        run("DaemonEndpoints", () -> node.getStatus().setDaemonEndpoints(new NodeDaemonEndpoints(
                new DaemonEndpoint(config.port()))));
        run("Images", () -> images(node));
        run("GoRuntime", () -> {
            nodeInfo(node).setOperatingSystem("linux");
            nodeInfo(node).setArchitecture(architecture());
        });
        String now = rfc3339(clock);
        run("MemoryPressureCondition", () -> NodeConditions.memoryPressure(node, now, health.memoryPressure(), recordEvent));
        run("DiskPressureCondition", () -> NodeConditions.diskPressure(node, now, health.diskPressure(), recordEvent));
        run("PIDPressureCondition", () -> NodeConditions.pidPressure(node, now, health.pidPressure(), recordEvent));
        run("ReadyCondition", () -> NodeConditions.ready(node, now, health.readinessErrors(),
                !Boolean.FALSE.equals(config.localStorageCapacityIsolation()), recordEvent));
        run("VolumesInUse", () -> volumesInUse(node));
    }

    /**
     * Upstream's {@code VolumesInUse} setter: only once the volume manager knows what the node has; until then the list
     * read back stays as the kubelet before a restart left it, so that no volume is detached under a pod meanwhile.
     */
    private void volumesInUse(Node node) {
        if (volumes.reconcilerStatesHasBeenSynced()) {
            node.getStatus().setVolumesInUse(volumes.getVolumesInUse());
        }
    }

    /**
     * Upstream {@code markVolumesFromNode}: tells the volume manager which volumes the Node lists in
     * {@code status.volumesInUse} (after a patch, or a status that needed none).
     */
    void markVolumesFromNode(Node node) {
        List<String> inUse = node.getStatus() == null || node.getStatus().getVolumesInUse() == null ? List.of()
                : node.getStatus().getVolumesInUse();
        volumes.markVolumesAsReportedInUse(inUse);
    }

    private void run(String setter, Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            log.warn("Failed to set some node status fields (setter {}): {}", setter, e.getMessage());
        }
    }

    private void addresses(Node node) {
        List<NodeAddress> addresses = new ArrayList<>();
        List<String> ips = identity.nodeIps();
        if (!ips.isEmpty()) {
            addresses.add(new NodeAddress(ips.getFirst(), "InternalIP"));
        }
        addresses.add(new NodeAddress(identity.hostname(), "Hostname"));
        for (int i = 1; i < ips.size(); i++) {
            addresses.add(new NodeAddress(ips.get(i), "InternalIP"));
        }
        node.getStatus().setAddresses(addresses);
    }

    private void machineInfo(Node node) {
        MachineInfo m = machine.get();
        NodeSystemInfo info = nodeInfo(node);
        info.setMachineID(m.machineId());
        info.setSystemUUID(m.systemUuid());
        info.setBootID(m.bootId());
        // Keys set by others (extended resources of device plugins) stay; the machine's own are overwritten.
        var capacity = new LinkedHashMap<>(node.getStatus().getCapacity() == null ? Map.of()
                : node.getStatus().getCapacity());
        capacity.putAll(NodeResources.capacity(m,
                NodeResources.podCapacity(config.maxPods(), config.podsPerCore(), m.numCores())));
        DeviceCapacity devices = devicePlugins.get();
        devices.capacity().forEach((resource, n) -> {
            Quantity was = capacity.put(resource, new Quantity(Long.toString(n)));
            if (was == null || was.getNumericalAmount().longValue() != n) {
                log.info("Updated capacity for device plugin {}: {}", resource, n);
            }
        });
        // A resource whose plugin is gone for good shows 0, not nothing: absent, it would look like a cluster-level one.
        devices.deleted().forEach(resource -> {
            log.info("Set capacity for removed resource {} to 0 on device removal", resource);
            capacity.put(resource, new Quantity("0"));
        });
        node.getStatus().setCapacity(capacity);
        // Allocatable follows capacity key for key; keys no longer in capacity go.
        var allocatable = NodeResources.allocatable(capacity, config.systemReserved(), config.kubeReserved(),
                config.evictionHard());
        devices.allocatable().forEach((resource, n) -> allocatable.put(resource, new Quantity(Long.toString(n))));
        node.getStatus().setAllocatable(allocatable);
    }

    private void versionInfo(Node node) {
        MachineInfo m = machine.get();
        NodeSystemInfo info = nodeInfo(node);
        info.setKernelVersion(m.kernelVersion());
        info.setOsImage(m.osImage());
        info.setKubeletVersion(identity.kubeletVersion());
        // 1.30 still reports kube-proxy's version as the kubelet's (DisableNodeKubeProxyVersion is off there).
        info.setKubeProxyVersion(identity.kubeletVersion());
        RuntimeVersion v = runtime.version();
        info.setContainerRuntimeVersion(v.runtimeName() + "://" + v.runtimeVersion());
    }

    private void images(Node node) {
        List<ContainerImage> reported = new ArrayList<>();
        int max = config.nodeStatusMaxImages() == null ? 50 : config.nodeStatusMaxImages();
        List<Image> list;
        try {
            list = new ArrayList<>(images.listImages());
        } catch (RuntimeException e) {
            node.getStatus().setImages(reported);
            throw new IllegalStateException("error getting image list: " + e.getMessage(), e);
        }
        // The image manager's order: largest first, then by ID descending.
        list.sort(Comparator.comparingLong(Image::size).reversed().thenComparing(Image::id, Comparator.reverseOrder()));
        if (max > -1 && max < list.size()) {
            list = list.subList(0, max);
        }
        for (Image image : list) {
            List<String> names = new ArrayList<>(image.repoDigests());
            names.addAll(image.repoTags());
            if (names.size() > MAX_NAMES_PER_IMAGE) {
                names = names.subList(0, MAX_NAMES_PER_IMAGE);
            }
            reported.add(new ContainerImage(new ArrayList<>(names), image.size()));
        }
        node.getStatus().setImages(reported);
    }

    private static NodeSystemInfo nodeInfo(Node node) {
        if (node.getStatus().getNodeInfo() == null) {
            node.getStatus().setNodeInfo(new NodeSystemInfo());
        }
        return node.getStatus().getNodeInfo();
    }

    /** Go's GOARCH for this JVM's architecture. */
    public static String architecture() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return switch (arch) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            case "x86", "i386", "i686" -> "386";
            case "ppc64le" -> "ppc64le";
            case "s390x" -> "s390x";
            default -> arch;
        };
    }

    /** metav1.Time's form: RFC 3339 in UTC, whole seconds. */
    static String rfc3339(Clock clock) {
        return DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
    }
}
