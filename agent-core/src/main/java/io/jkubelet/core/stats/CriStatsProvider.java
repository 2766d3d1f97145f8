package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.FsUsage;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.CpuStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.PodReference;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.ProcessStats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The pods' part of the summary from the runtime's sandbox stats, as upstream's {@code criStatsProvider} makes it
 * ({@code listPodStatsStrictlyFromCRI}): per pod, its containers' stats ({@code makeContainerStats}), its CPU, memory and
 * processes summed over them and its sandbox's own container ({@link PodUsageSum}), its network namespace's counters,
 * and its storage ({@link PodStorageStats}). Used by the collector's rounds only.
 */
final class CriStatsProvider {
    private final HostStatsProvider host;
    private final PodStorageStats storage;
    private final CpuUsageCache cpuUsage;

    CriStatsProvider(HostStatsProvider host, PodStorageStats storage, CpuUsageCache cpuUsage) {
        this.host = host;
        this.storage = storage;
        this.cpuUsage = cpuUsage;
    }

    /**
     * @param rootFs the node's root file system, where logs and volumes are
     * @param imageFs the runtime's image file system, where writable layers are; null when it cannot tell
     */
    PodStats podStats(PodSandboxStats sandbox, Instant now, FsUsage rootFs, FilesystemUsage imageFs) {
        PodSandboxMetadata meta = sandbox.metadata();
        List<ContainerStats> containers = new ArrayList<>();
        for (var c : sandbox.containers()) {
            containers.add(makeContainerStats(c, meta, now, rootFs, imageFs));
        }
        List<io.jkubelet.core.runtime.ContainerStats> counted = new ArrayList<>(sandbox.containers());
        if (sandbox.infra() != null) {
            counted.add(sandbox.infra());
        }
        PodUsageSum sum = PodUsageSum.of(counted);
        CpuStats cpu = sum.cpu() == null ? null : cpuUsage.cpuStats(CpuUsageCache.pod(meta.uid()), sum.cpu().time(),
                sum.cpu().usageCoreNanoSeconds());
        PodStorageStats.Volumes volumes = storage.volumeStats(meta.uid(), now, rootFs);
        return new PodStats(new PodReference(meta.name(), meta.namespace(), meta.uid()), sandbox.createdAt(), containers,
                cpu, sum.memory() == null ? null : sum.memory().toStats(),
                sandbox.network() == null ? null : StatsHelper.networkStats(sandbox.network()), volumes.all(),
                PodStorageStats.ephemeralStorage(now, rootFs, containers, volumes.localEphemeral()),
                sum.processCount() == null ? null : new ProcessStats(sum.processCount()));
    }

    /** A container's stats: CPU with its rate, memory, its writable layer on the image file system, its logs. */
    private ContainerStats makeContainerStats(io.jkubelet.core.runtime.ContainerStats c, PodSandboxMetadata pod,
                                              Instant now, FsUsage rootFs, FilesystemUsage imageFs) {
        var layer = c.writableLayer();
        FsStats rootfs = layer == null ? null
                : StatsHelper.imageFsStats(layer.timestamp(), imageFs, layer.usedBytes(), layer.inodesUsed());
        return new ContainerStats(c.metadata().name(), c.startedAt(),
                c.cpu() == null ? null : cpuUsage.containerCpuStats(c.id(), c.cpu()), StatsHelper.memoryStats(c.memory()),
                rootfs, host.containerLogStats(pod, c.metadata().name(), now, rootFs));
    }
}
