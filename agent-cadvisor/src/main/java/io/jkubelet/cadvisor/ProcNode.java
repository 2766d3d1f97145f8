package io.jkubelet.cadvisor;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The node's own usage from {@code /proc} (what cAdvisor reports for the root cgroup): CPU time from
 * {@code /proc/stat}, memory from {@code /proc/meminfo} and {@code /proc/vmstat}, and the process limits.
 * The root is a parameter so that tests read a fake tree. Stateless and thread-safe.
 */
public final class ProcNode {
    /** {@code USER_HZ}: the unit of {@code /proc/stat}, 100 on every Linux architecture the kubelet runs on. */
    static final long NANOS_PER_TICK = 10_000_000L;

    private final Path proc;

    public ProcNode(Path proc) {
        this.proc = proc;
    }

    /** The {@code /proc} this reads. */
    public Path root() {
        return proc;
    }

    /** The node's counters; a value that cannot be read is -1. */
    public record Sample(long cpuUsageNanos, long memoryTotalBytes, long memoryUsageBytes, long workingSetBytes,
                         long rssBytes, long pageFaults, long majorPageFaults, Instant bootTime) {}

    public Sample sample() throws IOException {
        long cpu = -1;
        Instant boot = null;
        for (String line : Files.readAllLines(proc.resolve("stat"))) {
            String[] f = line.strip().split("\\s+");
            if (f[0].equals("cpu")) {
                // user nice system idle iowait irq softirq steal: everything but idle and iowait is usage
                long ticks = 0;
                for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                    ticks += i < f.length ? Long.parseLong(f[i]) : 0;
                }
                cpu = ticks * NANOS_PER_TICK;
            } else if (f[0].equals("btime") && f.length > 1) {
                boot = Instant.ofEpochSecond(Long.parseLong(f[1]));
            }
        }
        MemInfo mem = MemInfo.read(proc);
        long total = mem.bytes(MemInfo.MEM_TOTAL, -1);
        long free = mem.bytes("MemFree", -1);
        long usage = total < 0 || free < 0 ? -1 : total - free;
        long workingSet = usage < 0 ? -1 : Math.max(0, usage - mem.bytes("Inactive(file)", 0));
        Map<String, Long> vm = keyed(proc.resolve("vmstat"));
        return new Sample(cpu, total, usage, workingSet, mem.bytes("AnonPages", -1),
                vm.getOrDefault("pgfault", -1L), vm.getOrDefault("pgmajfault", -1L), boot);
    }

    /** {@code /proc/sys/kernel/pid_max}, or -1. */
    public long maxPid() {
        try {
            return Long.parseLong(PseudoFiles.read(proc.resolve("sys/kernel/pid_max")).strip());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** The number of processes: the numeric entries of {@code /proc}. */
    public long processCount() {
        long n = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
                    n++;
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return n;
    }

    private static Map<String, Long> keyed(Path file) {
        Map<String, Long> values = new HashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                String[] f = line.strip().split("\\s+");
                if (f.length == 2) {
                    try {
                        values.put(f[0], Long.parseLong(f[1]));
                    } catch (NumberFormatException e) {
                        // skip
                    }
                }
            }
        } catch (IOException e) {
            return values;
        }
        return values;
    }
}
