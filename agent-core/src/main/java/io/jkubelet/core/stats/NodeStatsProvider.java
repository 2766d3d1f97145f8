package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.CgroupSample;
import io.jkubelet.cadvisor.FsUsage;
import io.jkubelet.cadvisor.NetDev;
import io.jkubelet.cadvisor.ProcNode;
import io.jkubelet.cadvisor.PseudoFiles;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.NetworkUsage;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.CpuStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.MemoryStats;
import io.jkubelet.core.stats.summary.NetworkStats;
import io.jkubelet.core.stats.summary.NodeStats;
import io.jkubelet.core.stats.summary.RlimitStats;
import io.jkubelet.core.stats.summary.RuntimeStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.jkubelet.core.stats.StatsHelper.orNull;

/**
 * The node's part of the summary, what upstream's summary provider reads of cAdvisor's root container and file
 * systems: the node's CPU and memory from {@code /proc}, its root file system, the runtime's image file system, the
 * process limits ({@code rlimit}), the network devices of the host's namespace, and the {@link SystemContainers}.
 * Used by the collector's rounds only.
 */
final class NodeStatsProvider {
    private static final Logger log = LoggerFactory.getLogger(NodeStatsProvider.class);

    private final String nodeName;
    private final ProcNode proc;
    private final SystemContainers systemContainers;
    private final CpuUsageCache cpuUsage;

    /** @param systemContainers the kubelet's, the runtime's and the pods' cgroups; null for none */
    NodeStatsProvider(String nodeName, ProcNode proc, SystemContainers systemContainers, CpuUsageCache cpuUsage) {
        this.nodeName = nodeName;
        this.proc = proc;
        this.systemContainers = systemContainers;
        this.cpuUsage = cpuUsage;
    }

    /** @param imageFs the runtime's image file system, null when it cannot tell */
    NodeStats nodeStats(Instant now, FsUsage rootFs, FilesystemUsage imageFs) {
        ProcNode.Sample s;
        try {
            s = proc.sample();
        } catch (IOException | RuntimeException e) {
            log.debug("cannot read the node's usage from /proc: {}", e.getMessage());
            s = null;
        }
        CpuStats cpu = null;
        MemoryStats memory = null;
        Instant start = null;
        if (s != null) {
            start = s.bootTime();
            if (s.cpuUsageNanos() >= 0) {
                cpu = cpuUsage.cpuStats(CpuUsageCache.NODE, now, s.cpuUsageNanos());
            }
            if (s.memoryUsageBytes() >= 0) {
                memory = new MemoryStats(now, s.memoryTotalBytes() < 0 ? null
                        : Math.max(0, s.memoryTotalBytes() - s.workingSetBytes()), s.memoryUsageBytes(),
                        s.workingSetBytes(), orNull(s.rssBytes()), orNull(s.pageFaults()), orNull(s.majorPageFaults()));
            }
        }
        FsStats fs = StatsHelper.fsStats(now, rootFs, orNull(rootFs.usedBytes()), orNull(rootFs.inodesUsed()));
        RuntimeStats runtime = imageFs == null ? null : new RuntimeStats(StatsHelper.imageFsStats(now, imageFs,
                orNull(imageFs.usedBytes()), orNull(imageFs.inodesUsed())));
        RlimitStats rlimit = new RlimitStats(now, orNull(proc.maxPid()), orNull(proc.processCount()));
        return new NodeStats(nodeName, systemContainerStats(now), start, cpu, memory, network(now), fs, runtime, rlimit);
    }

    /** Each system container's CPU and memory from its cgroup; what its limit leaves as {@code availableBytes}. */
    private List<ContainerStats> systemContainerStats(Instant now) {
        if (systemContainers == null) {
            return List.of();
        }
        List<ContainerStats> out = new ArrayList<>();
        for (SystemContainers.Sample s : systemContainers.read()) {
            CgroupSample c = s.cgroup();
            CpuStats cpu = c.cpuUsageNanos() < 0 ? null
                    : cpuUsage.cpuStats(CpuUsageCache.systemContainer(s.name()), now, c.cpuUsageNanos());
            MemoryStats memory = c.memoryUsageBytes() < 0 ? null
                    : new MemoryStats(now, c.memoryLimitBytes() < 0 ? null : Math.max(0, c.memoryLimitBytes() - c.workingSetBytes()),
                            c.memoryUsageBytes(), c.workingSetBytes(), orNull(c.rssBytes()), orNull(c.pageFaults()),
                            orNull(c.majorPageFaults()));
            out.add(new ContainerStats(s.name(), s.startTime(), cpu, memory, null, null));
        }
        return out;
    }

    /** The host network namespace's devices, from {@code /proc/net/dev}; null when it cannot be read. */
    private NetworkStats network(Instant now) {
        try {
            return StatsHelper.networkStats(NetworkUsage.of(now, NetDev.parse(PseudoFiles.read(proc.root().resolve("net/dev")))));
        } catch (IOException e) {
            return null;
        }
    }
}
