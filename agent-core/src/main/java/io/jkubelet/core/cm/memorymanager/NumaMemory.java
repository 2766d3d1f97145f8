package io.jkubelet.core.cm.memorymanager;

import java.util.Map;
import java.util.TreeMap;

/**
 * One NUMA node's memory as cAdvisor's {@code MachineInfo.Topology} gives it upstream: its total memory and its
 * hugepages by page size.
 *
 * @param id the node ID
 * @param memory the node's {@code MemTotal}, bytes (hugepages included)
 * @param hugePages number of pages by page size in KiB ({@code 2048}: {@code hugepages-2Mi})
 */
public record NumaMemory(int id, long memory, Map<Long, Long> hugePages) {
    public NumaMemory {
        hugePages = new TreeMap<>(hugePages);
    }

    /** A node without hugepages. */
    public static NumaMemory of(int id, long memory) {
        return new NumaMemory(id, memory, Map.of());
    }

    /**
     * The resource name of a page size (upstream's {@code HugePageResourceName} of the size as a binary quantity):
     * {@code hugepages-2Mi}, {@code hugepages-1Gi}.
     */
    public static String hugePagesResource(long pageSizeKib) {
        long bytes = pageSizeKib * 1024;
        String[] suffixes = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
        int i = 0;
        while (i < suffixes.length - 1 && bytes != 0 && bytes % 1024 == 0) {
            bytes /= 1024;
            i++;
        }
        return "hugepages-" + bytes + suffixes[i];
    }
}
