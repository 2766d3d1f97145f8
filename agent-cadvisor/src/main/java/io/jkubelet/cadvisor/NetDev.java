package io.jkubelet.cadvisor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code /proc/<pid>/net/dev}: the counters of every interface in that process's network namespace.
 * Loopback is left out, as cAdvisor leaves it out.
 */
public final class NetDev {
    private NetDev() {}

    /**
     * The counters of the network namespace of process {@code pid} (a sandbox's), read under {@code proc}.
     *
     * @throws IOException when the process is gone
     */
    public static List<InterfaceStats> ofProcess(Path proc, long pid) throws IOException {
        return parse(PseudoFiles.read(proc.resolve(Long.toString(pid)).resolve("net/dev")));
    }

    /**
     * @param text the file's contents: two header lines, then {@code name: rx_bytes rx_packets rx_errs ...
     *     (8 receive fields) tx_bytes tx_packets tx_errs ...}
     */
    public static List<InterfaceStats> parse(String text) {
        List<InterfaceStats> result = new ArrayList<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = line.substring(0, colon).strip();
            String[] f = line.substring(colon + 1).strip().split("\\s+");
            if (name.equals("lo") || f.length < 16) {
                continue;
            }
            try {
                result.add(new InterfaceStats(name, Long.parseLong(f[0]), Long.parseLong(f[2]),
                        Long.parseLong(f[8]), Long.parseLong(f[10])));
            } catch (NumberFormatException e) {
                // a header line that happens to contain ':'
            }
        }
        return result;
    }
}
