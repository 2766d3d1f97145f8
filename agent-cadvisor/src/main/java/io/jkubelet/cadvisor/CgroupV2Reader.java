package io.jkubelet.cadvisor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** cgroup v2: the unified hierarchy, every controller's files in the cgroup's one directory. */
public final class CgroupV2Reader implements CgroupReader {
    private final Path root;

    public CgroupV2Reader(Path root) {
        this.root = root;
    }

    @Override
    public String version() {
        return "v2";
    }

    @Override
    public Optional<CgroupSample> read(String cgroupPath) {
        Path dir = CgroupFiles.dir(root, cgroupPath);
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        Map<String, Long> cpuStat = CgroupFiles.readKeyed(dir.resolve("cpu.stat"));
        Map<String, Long> memStat = CgroupFiles.readKeyed(dir.resolve("memory.stat"));
        long usage = CgroupFiles.readLong(dir.resolve("memory.current"));
        long usageUsec = cpuStat.getOrDefault("usage_usec", -1L);
        long[] cpuMax = cpuMax(CgroupFiles.readOrNull(dir.resolve("cpu.max")));
        long weight = CgroupFiles.readLong(dir.resolve("cpu.weight"));
        return Optional.of(new CgroupSample(
                usageUsec < 0 ? -1 : usageUsec * 1000,
                usage,
                usage < 0 ? -1 : CgroupFiles.workingSet(usage, memStat.getOrDefault("inactive_file", 0L)),
                memStat.getOrDefault("anon", -1L),
                memStat.getOrDefault("pgfault", -1L),
                memStat.getOrDefault("pgmajfault", -1L),
                CgroupFiles.readLong(dir.resolve("memory.max")),
                CgroupFiles.readLong(dir.resolve("pids.current")),
                weight < 0 ? -1 : sharesFromWeight(weight),
                cpuMax[0],
                cpuMax[1]));
    }

    /** {@code cpu.max} is {@code <quota|max> <period>}; a missing file reads as no quota, period unknown. */
    static long[] cpuMax(String text) {
        if (text == null || text.isBlank()) {
            return new long[] {-1, -1};
        }
        String[] parts = text.strip().split("\\s+");
        long quota = parts[0].equals("max") ? -1 : Long.parseLong(parts[0]);
        long period = parts.length > 1 ? Long.parseLong(parts[1]) : -1;
        return new long[] {quota, period};
    }

    /**
     * The inverse of the runtimes' shares-to-weight mapping ({@code weight = 1 + (shares-2)*9999/262142}),
     * as cAdvisor converts {@code cpu.weight} back to the v1 shares its metrics report.
     */
    static long sharesFromWeight(long weight) {
        return 2 + ((weight - 1) * 262142) / 9999;
    }
}
