package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.FsUsage;
import io.jkubelet.cadvisor.ProcNode;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.stats.summary.NodeStats;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.Summary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Collectors;

/**
 * The kubelet's stats provider (upstream's {@code stats.Provider}): collects the node's and its pods' usage on its own
 * period and keeps the latest {@link StatsSnapshot}, so that {@code /stats/summary} and {@code /metrics/resource} only
 * serialize it and never call the runtime (upstream's kubelet serves cached stats too: cAdvisor's housekeeping).
 *
 * <p>A round asks the runtime for its sandboxes' stats ({@link RuntimeService#listPodSandboxStats}: the containers'
 * cgroups, the sandboxes' network namespaces, writable layers) and puts the summary together from upstream's pieces:
 * the node ({@link NodeStatsProvider}: {@code /proc}, file systems, system containers), the pods
 * ({@link CriStatsProvider}, with {@link PodStorageStats} and {@link HostStatsProvider}), and the CPU rates of what is
 * read as a cumulative counter ({@link CpuUsageCache}). {@link StatsRounds} schedules the rounds and keeps the latest.
 * The pods' volumes are measured apart ({@link PodVolumeUsage}): a round reads their last readings, so that a volume
 * whose measurement hangs holds up neither the round nor any other volume.
 *
 * <p>Thread-safe: one collector thread writes, any thread reads {@link #latest()}.
 */
public final class StatsProvider implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StatsProvider.class);

    /** cAdvisor's default housekeeping interval, which bounds how fresh the kubelet's stats are. */
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(10);

    /** Where the node's own data lives. */
    public record NodePaths(Path rootDir, Path podLogsDir, ProcNode proc) {}

    private final RuntimeService runtime;
    private final ImageService images;
    private final String nodeName;
    private final Path rootDir;
    private final Clock clock;
    private final StatsRounds rounds;
    private final CpuUsageCache cpuUsage = new CpuUsageCache();
    private final PodStorageStats storage;
    private final NodeStatsProvider node;
    private final CriStatsProvider pods;
    private final Executor volumeMeasurements;

    /**
     * @param systemContainers the kubelet's and the runtime's cgroups for {@code systemContainers}; null for none
     * @param scheduler the thread collection rounds run on from {@link #start()}; shut down by {@link #close()}
     */
    public StatsProvider(RuntimeService runtime, ImageService images, String nodeName, NodePaths paths, Clock clock,
                         Duration period, SystemContainers systemContainers, ScheduledExecutorService scheduler) {
        this(runtime, images, nodeName, paths, clock, period, period, systemContainers, scheduler);
    }

    /**
     * @param volumeStatsAggPeriod {@code volumeStatsAggPeriod}: how often each pod's volumes are measured again (they are
     *     kept in between); zero or less disables volume stats
     */
    public StatsProvider(RuntimeService runtime, ImageService images, String nodeName, NodePaths paths, Clock clock,
                         Duration period, Duration volumeStatsAggPeriod, SystemContainers systemContainers,
                         ScheduledExecutorService scheduler) {
        // Without a volume manager: only emptyDirs on the node's disk, which the kubelet walks itself, in the round.
        this(runtime, images, nodeName, paths, clock, period, volumeStatsAggPeriod,
                uid -> PodVolumeLister.emptyDirsOnDisk(paths.rootDir()).volumes(uid), systemContainers, scheduler,
                Runnable::run);
    }

    /**
     * @param volumeStatsAggPeriod {@code volumeStatsAggPeriod}: how often each pod's volumes are measured again (they are
     *     kept in between); zero or less disables volume stats
     * @param volumes each pod's mounted volumes (the volume manager's)
     * @param volumeMeasurements where each volume is measured, apart from the rounds, so that a measurement that hangs
     *     (a CSI driver that does not answer) holds no round and no other volume: a thread per measurement; shut down by
     *     {@link #close()} when it is an {@link ExecutorService}
     */
    public StatsProvider(RuntimeService runtime, ImageService images, String nodeName, NodePaths paths, Clock clock,
                         Duration period, Duration volumeStatsAggPeriod, PodVolumeLister volumes,
                         SystemContainers systemContainers, ScheduledExecutorService scheduler, Executor volumeMeasurements) {
        this.rounds = new StatsRounds(scheduler, period, this::round);
        this.volumeMeasurements = volumeMeasurements;
        this.runtime = runtime;
        this.images = images;
        this.nodeName = nodeName;
        this.rootDir = paths.rootDir();
        this.clock = clock;
        this.storage = new PodStorageStats(volumeStatsAggPeriod, volumes, volumeMeasurements);
        this.node = new NodeStatsProvider(nodeName, paths.proc(), systemContainers, cpuUsage);
        this.pods = new CriStatsProvider(new HostStatsProvider(paths.podLogsDir()), storage, cpuUsage);
    }

    /** Starts collecting: a first round at once, then one every period. Idempotent. */
    public void start() {
        rounds.start();
    }

    /** The latest round's stats, or empty before the first round has completed. */
    public Optional<StatsSnapshot> latest() {
        return rounds.latest();
    }

    /**
     * The summary as the eviction manager asks for it (upstream {@code SummaryProvider.Get}): the latest round's, or,
     * with {@code updateStats}, one collected now (after node-level reclaim, to see what it freed). Empty before the
     * first round, or when a round asked for fails.
     */
    public Optional<Summary> summary(boolean updateStats) {
        if (!updateStats) {
            return latest().map(StatsSnapshot::summary);
        }
        try {
            return Optional.of(collect().summary());
        } catch (RuntimeException e) {
            log.warn("Stats collection failed: {}", e.getMessage() == null ? e.toString() : e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * Whether the runtime's images are on another device than the root directory (upstream
     * {@code HasDedicatedImageFs}): then pressure on one does not free the other.
     *
     * @throws IOException when either cannot be looked at (the runtime's data root is not on this machine)
     */
    public boolean hasDedicatedImageFs() throws IOException {
        FilesystemUsage imageFs = images.imageFsInfo();
        if (imageFs == null || imageFs.mountpoint() == null || imageFs.mountpoint().isEmpty()) {
            throw new IOException("the runtime does not say where its images are");
        }
        Object imageDevice = Files.getAttribute(Path.of(imageFs.mountpoint()), "unix:dev");
        Object rootDevice = Files.getAttribute(rootDir, "unix:dev");
        return !imageDevice.equals(rootDevice);
    }

    /** Runs {@code listener} after each periodic round that succeeds, on the collector thread: it must not block. */
    public void onRound(Runnable listener) {
        rounds.onRound(listener);
    }

    /** One round now, stored as the latest. Called by {@link #summary(boolean)} and tests. */
    StatsSnapshot collect() {
        return rounds.collect();
    }

    /** The rounds, for tests that run a periodic round by hand. */
    StatsRounds rounds() {
        return rounds;
    }

    /** One round's reading: everything read, the summary put together. Run by {@link StatsRounds}, one at a time. */
    private StatsSnapshot round() {
        List<PodSandboxStats> sandboxes = runtime.listPodSandboxStats(Map.of(Labels.NODE_NAME, nodeName));
        Instant now = clock.instant();
        FsUsage rootFs = FsUsage.of(rootDir);
        FilesystemUsage imageFs = imageFs();
        cpuUsage.beginRound();
        NodeStats nodeStats = node.nodeStats(now, rootFs, imageFs);
        List<PodStats> podStats = sandboxes.stream().map(s -> pods.podStats(s, now, rootFs, imageFs)).toList();
        storage.retainPods(sandboxes.stream().map(s -> s.metadata().uid()).collect(Collectors.toSet()));
        cpuUsage.endRound();
        return new StatsSnapshot(now, new Summary(nodeStats, podStats), sandboxes, null);
    }

    private FilesystemUsage imageFs() {
        try {
            return images.imageFsInfo();
        } catch (RuntimeException e) {
            log.debug("imageFsInfo failed: {}", e.getMessage());
            return null;
        }
    }

    @Override
    public void close() {
        rounds.close();
        if (volumeMeasurements instanceof ExecutorService measurements) {
            measurements.shutdownNow();
        }
    }
}
