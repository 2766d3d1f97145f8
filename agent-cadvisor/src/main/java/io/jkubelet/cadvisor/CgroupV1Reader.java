package io.jkubelet.cadvisor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * cgroup v1: one hierarchy per controller ({@code cpu}, {@code cpuacct}, {@code memory}, {@code pids}) under
 * the root. Hierarchical ({@code total_*}) memory counters, as cAdvisor reads them, so that a pod-level
 * cgroup includes its children.
 */
public final class CgroupV1Reader implements CgroupReader {
    private final Path root;

    public CgroupV1Reader(Path root) {
        this.root = root;
    }

    @Override
    public String version() {
        return "v1";
    }

    @Override
    public Optional<CgroupSample> read(String cgroupPath) {
        Path memory = CgroupFiles.dir(root.resolve("memory"), cgroupPath);
        Path cpuacct = CgroupFiles.dir(root.resolve("cpuacct"), cgroupPath);
        if (!Files.isDirectory(memory) && !Files.isDirectory(cpuacct)) {
            return Optional.empty();
        }
        Path cpu = CgroupFiles.dir(root.resolve("cpu"), cgroupPath);
        Map<String, Long> stat = CgroupFiles.readKeyed(memory.resolve("memory.stat"));
        long usage = CgroupFiles.readLong(memory.resolve("memory.usage_in_bytes"));
        long limit = CgroupFiles.readLong(memory.resolve("memory.limit_in_bytes"));
        return Optional.of(new CgroupSample(
                CgroupFiles.readLong(cpuacct.resolve("cpuacct.usage")),
                usage,
                usage < 0 ? -1 : CgroupFiles.workingSet(usage, stat.getOrDefault("total_inactive_file", 0L)),
                stat.getOrDefault("total_rss", -1L),
                stat.getOrDefault("total_pgfault", -1L),
                stat.getOrDefault("total_pgmajfault", -1L),
                limit >= CgroupFiles.UNLIMITED_AT ? -1 : limit,
                CgroupFiles.readLong(CgroupFiles.dir(root.resolve("pids"), cgroupPath).resolve("pids.current")),
                CgroupFiles.readLong(cpu.resolve("cpu.shares")),
                CgroupFiles.readLong(cpu.resolve("cpu.cfs_quota_us")),
                CgroupFiles.readLong(cpu.resolve("cpu.cfs_period_us"))));
    }
}
