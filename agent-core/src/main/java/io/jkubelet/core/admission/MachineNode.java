package io.jkubelet.core.admission;

import com.sun.management.OperatingSystemMXBean;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.math.BigDecimal;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The node as admission sees it when nothing better is known (a standalone node, or before the node
 * object is built): the machine's capacity ({@code cpu}, {@code memory}, {@code ephemeral-storage} of the root
 * directory's file system, {@code pods} = {@code maxPods}) less what the node reserves as allocatable, with the
 * {@code kubernetes.io/os} and {@code kubernetes.io/hostname} labels, like upstream's initial node.
 */
public final class MachineNode {
    private static final Logger log = LoggerFactory.getLogger(MachineNode.class);

    private MachineNode() {}

    /** What a node reserves of each resource of its capacity (the container manager's reservation). */
    @FunctionalInterface
    public interface Reservation extends Function<Map<String, Quantity>, Map<String, BigDecimal>> {
        Reservation NONE = capacity -> Map.of();
    }

    public static Node of(String nodeName, int maxPods, long cpuCores, long memoryBytes, long ephemeralStorageBytes) {
        return of(nodeName, maxPods, cpuCores, memoryBytes, ephemeralStorageBytes, Reservation.NONE);
    }

    public static Node of(String nodeName, int maxPods, long cpuCores, long memoryBytes, long ephemeralStorageBytes,
                          Reservation reservation) {
        Map<String, Quantity> capacity = new LinkedHashMap<>();
        capacity.put(ResourceRequests.CPU, new Quantity(Long.toString(cpuCores)));
        capacity.put(ResourceRequests.MEMORY, new Quantity(Long.toString(memoryBytes)));
        capacity.put(ResourceRequests.EPHEMERAL_STORAGE, new Quantity(Long.toString(ephemeralStorageBytes)));
        capacity.put(ResourceRequests.PODS, new Quantity(Integer.toString(maxPods)));
        return new NodeBuilder().withNewMetadata().withName(nodeName)
                .addToLabels(PredicateAdmitHandler.OS_LABEL, PredicateAdmitHandler.NODE_OS)
                .addToLabels("kubernetes.io/hostname", nodeName).endMetadata()
                .withNewSpec().endSpec()
                .withNewStatus().withCapacity(capacity).withAllocatable(allocatable(capacity, reservation.apply(capacity)))
                .endStatus().build();
    }

    private static Map<String, Quantity> allocatable(Map<String, Quantity> capacity, Map<String, BigDecimal> reserved) {
        Map<String, Quantity> out = new LinkedHashMap<>();
        capacity.forEach((name, cap) -> {
            BigDecimal left = cap.getNumericalAmount().subtract(reserved.getOrDefault(name, BigDecimal.ZERO));
            out.put(name, new Quantity(left.max(BigDecimal.ZERO).stripTrailingZeros().toPlainString()));
        });
        return out;
    }

    /** This machine: its processors, its physical memory, and the file system holding {@code rootDir}. */
    public static Node detect(String nodeName, int maxPods, Path rootDir, Reservation reservation) {
        long memory = 0;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
            memory = os.getTotalMemorySize();
        }
        return of(nodeName, maxPods, Runtime.getRuntime().availableProcessors(), memory, diskCapacity(rootDir), reservation);
    }

    private static long diskCapacity(Path dir) {
        Path p = dir.toAbsolutePath();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        try {
            return p == null ? 0 : Files.getFileStore(p).getTotalSpace();
        } catch (IOException e) {
            log.warn("Cannot read the capacity of the file system of {}: {}", dir, e.getMessage());
            return 0;
        }
    }
}
