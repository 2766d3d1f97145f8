package io.jkubelet.core.cm.topologymanager;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine's NUMA nodes and distances from sysfs, what cAdvisor's {@code MachineInfo.Topology} gives upstream: each
 * {@code devices/system/node/node<N>} directory and its {@code distance} file. A kernel without NUMA shows no such
 * directory: the machine is then one node, 0, without distances, as cAdvisor reports it.
 */
public final class SysfsNumaNodes {
    private SysfsNumaNodes() {}

    /** Reads {@code <sys>/devices/system/node}. */
    public static NumaInfo read(Path sys) throws IOException {
        Path dir = sys.resolve("devices/system/node");
        List<Integer> nodes = new ArrayList<>();
        Map<Integer, List<Long>> distances = new HashMap<>();
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "node[0-9]*")) {
                for (Path e : entries) {
                    int id = Integer.parseInt(e.getFileName().toString().substring("node".length()));
                    nodes.add(id);
                    distances.put(id, distances(e.resolve("distance")));
                }
            }
        }
        if (nodes.isEmpty()) {
            return NumaInfo.of(0);
        }
        return new NumaInfo(nodes, distances);
    }

    private static List<Long> distances(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        List<Long> out = new ArrayList<>();
        for (String d : Files.readString(file).strip().split("\\s+")) {
            if (!d.isEmpty()) {
                out.add(Long.parseLong(d));
            }
        }
        return out;
    }
}
