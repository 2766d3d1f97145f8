package io.jkubelet.cadvisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine's memory counters from {@code /proc/meminfo} ({@code Key: value kB} lines), in bytes: the one parser of
 * that file, for the machine's capacity ({@link #machineMemoryCapacity}) and the node's usage ({@link ProcNode}).
 * Immutable.
 */
public final class MemInfo {
    /** The machine's memory, what the node reports as its {@code memory} capacity. */
    public static final String MEM_TOTAL = "MemTotal";

    private final Map<String, Long> bytes;

    private MemInfo(Map<String, Long> bytes) {
        this.bytes = Map.copyOf(bytes);
    }

    /** Reads {@code meminfo} under {@code proc} ({@code /proc} on a node, a fake tree in tests). */
    public static MemInfo read(Path proc) throws IOException {
        return parse(Files.readAllLines(proc.resolve("meminfo")));
    }

    /** Lines that are not {@code Key: number [kB]} are skipped; a value without a unit is taken as it is. */
    static MemInfo parse(List<String> lines) {
        Map<String, Long> values = new HashMap<>();
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String[] f = line.substring(colon + 1).strip().split("\\s+");
            try {
                long v = Long.parseLong(f[0]);
                values.put(line.substring(0, colon), f.length > 1 && f[1].equalsIgnoreCase("kB") ? v * 1024 : v);
            } catch (NumberFormatException e) {
                // not a number
            }
        }
        return new MemInfo(values);
    }

    /** The value of {@code key} in bytes, or {@code fallback} when the file has no such line. */
    public long bytes(String key, long fallback) {
        return bytes.getOrDefault(key, fallback);
    }

    /**
     * {@code MemTotal} of {@code proc}'s {@code meminfo} in bytes, as cAdvisor's {@code machine.GetMachineMemoryCapacity}
     * reads the machine's memory capacity.
     *
     * @throws IOException when the file cannot be read or has no {@code MemTotal}
     */
    public static long machineMemoryCapacity(Path proc) throws IOException {
        long total = read(proc).bytes(MEM_TOTAL, -1);
        if (total < 0) {
            throw new IOException("no " + MEM_TOTAL + " in " + proc.resolve("meminfo"));
        }
        return total;
    }
}
