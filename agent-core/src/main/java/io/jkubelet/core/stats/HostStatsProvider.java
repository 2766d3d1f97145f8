package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.DirUsage;
import io.jkubelet.cadvisor.FsUsage;
import io.jkubelet.core.kuberuntime.ContainerConfigFactory;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.stats.summary.FsStats;

import java.nio.file.Path;
import java.time.Instant;

/**
 * Upstream's {@code hostStatsProvider}: what a pod's containers take of the node's root file system outside the
 * runtime, their logs under {@code podLogsDir}. Stateless.
 */
final class HostStatsProvider {
    private final Path podLogsDir;

    HostStatsProvider(Path podLogsDir) {
        this.podLogsDir = podLogsDir;
    }

    /**
     * A container's log usage (upstream's {@code getPodContainerLogStats}): its directory in the pod's log directory,
     * where a symbolic link to the runtime's log file (Docker's json log) counts as that file.
     */
    FsStats containerLogStats(PodSandboxMetadata pod, String containerName, Instant now, FsUsage rootFs) {
        Path podLogs = ContainerConfigFactory.podLogsDir(podLogsDir, pod.namespace(), pod.name(), pod.uid());
        DirUsage usage = DirUsage.of(podLogs.resolve(containerName), true);
        return StatsHelper.fsStats(now, rootFs, usage.bytes(), usage.inodes());
    }
}
