package io.jkubelet.core.cm.memorymanager;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Each NUMA node's memory from sysfs, as cAdvisor reads it for upstream's {@code MachineInfo.Topology}:
 * {@code devices/system/node/node<N>/meminfo}'s {@code MemTotal} and {@code hugepages/hugepages-<size>kB/nr_hugepages}.
 * A kernel without NUMA shows no node directory: the machine is then node 0 with {@code /proc/meminfo}'s total.
 */
public final class SysfsMachineMemory {
    private static final Pattern MEM_TOTAL = Pattern.compile("MemTotal:\\s+(\\d+)\\s*kB");
    private static final Pattern HUGEPAGES_DIR = Pattern.compile("hugepages-(\\d+)kB");

    private SysfsMachineMemory() {}

    /**
     * Reads {@code <sys>/devices/system/node}, else {@code procMeminfo}.
     *
     * @throws IOException when a node's {@code meminfo} cannot be read or has no {@code MemTotal}
     */
    public static List<NumaMemory> read(Path sys, Path procMeminfo) throws IOException {
        Path dir = sys.resolve("devices/system/node");
        List<NumaMemory> nodes = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "node[0-9]*")) {
                for (Path e : entries) {
                    int id = Integer.parseInt(e.getFileName().toString().substring("node".length()));
                    nodes.add(new NumaMemory(id, memTotal(e.resolve("meminfo")), hugePages(e.resolve("hugepages"))));
                }
            }
        }
        if (nodes.isEmpty()) {
            return List.of(new NumaMemory(0, memTotal(procMeminfo), hugePages(sys.resolve("kernel/mm/hugepages"))));
        }
        nodes.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return nodes;
    }

    private static long memTotal(Path meminfo) throws IOException {
        Matcher m = MEM_TOTAL.matcher(Files.readString(meminfo));
        if (!m.find()) {
            throw new IOException("no MemTotal in " + meminfo);
        }
        return Long.parseLong(m.group(1)) * 1024;
    }

    private static Map<Long, Long> hugePages(Path dir) throws IOException {
        Map<Long, Long> out = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "hugepages-*")) {
            for (Path e : entries) {
                Matcher m = HUGEPAGES_DIR.matcher(e.getFileName().toString());
                Path count = e.resolve("nr_hugepages");
                if (m.matches() && Files.isRegularFile(count)) {
                    out.put(Long.parseLong(m.group(1)), Long.parseLong(Files.readString(count).strip()));
                }
            }
        }
        return out;
    }
}
