package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.PseudoFiles;
import io.jkubelet.cadvisor.ProcNode;
import io.jkubelet.cadvisor.NetDev;
import io.jkubelet.cadvisor.FsUsage;
import io.jkubelet.cadvisor.DirUsage;
import io.jkubelet.core.runtime.ContainerStats;
import io.jkubelet.core.runtime.CpuUsage;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.MemoryUsage;
import io.jkubelet.core.runtime.NetworkInterfaceUsage;
import io.jkubelet.core.runtime.NetworkUsage;
import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.runtime.RuntimeService;
import io.jkubelet.core.stats.summary.CpuStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.InterfaceStats;
import io.jkubelet.core.stats.summary.MemoryStats;
import io.jkubelet.core.stats.summary.NetworkStats;
import io.jkubelet.core.stats.summary.NodeStats;
import io.jkubelet.core.stats.summary.PodReference;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.ProcessStats;
import io.jkubelet.core.stats.summary.RlimitStats;
import io.jkubelet.core.stats.summary.RuntimeStats;
import io.jkubelet.core.stats.summary.Summary;
import io.jkubelet.core.stats.summary.VolumeStats;
import io.jkubelet.core.volume.PodDirs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Collects the node's and its pods' usage on its own period and keeps the latest {@link StatsSnapshot}, so
 * that {@code /stats/summary} and {@code /metrics/resource} only serialize it and never call the runtime
 * (upstream's kubelet serves cached stats too: cAdvisor's housekeeping, every 10 s by default).
 *
 * <p>Sources: the runtime's {@link RuntimeService#listPodSandboxStats} (cgroups of the containers, the
 * sandbox's network namespace, writable layers), {@code /proc} for the node, the file systems of the root
 * directory and the runtime's images, the pod log directories and the pods' emptyDir volumes. CPU rates
 * ({@code usageNanoCores}) come from the difference between two rounds, as upstream's CRI stats provider
 * computes them for runtimes that do not.
 *
 * <p>Thread-safe: one collector thread writes, any thread reads {@link #latest()}.
 */
public final class StatsProvider implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StatsProvider.class);

    /** cAdvisor's default housekeeping interval, which bounds how fresh the kubelet's stats are. */
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(10);

    static final String EMPTY_DIR_PLUGIN = "kubernetes.io~empty-dir";

    /** Where the node's own data lives. */
    public record NodePaths(Path rootDir, Path podLogsDir, ProcNode proc) {}

    private final RuntimeService runtime;
    private final ImageService images;
    private final String nodeName;
    private final NodePaths paths;
    private final Clock clock;
    private final Duration period;
    private final PodVolumeUsage volumeUsage;
    private final AtomicReference<StatsSnapshot> latest = new AtomicReference<>();
    /** The previous round's cumulative CPU time per container id, pod ({@code pod/<uid>}) and {@code node}. */
    private final Map<String, CpuPoint> previousCpu = new HashMap<>();
    private final ScheduledExecutorService scheduler;
    private boolean started;

    private record CpuPoint(Instant time, long usageNanos) {}

    private final SystemContainers systemContainers;
    /** Told after each periodic round that succeeded (the eviction manager's cycles follow the rounds). */
    private final List<Runnable> roundListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

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
        this.volumeUsage = new PodVolumeUsage(volumeStatsAggPeriod);
        this.systemContainers = systemContainers;
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("stats period must be positive, got " + period);
        }
        this.runtime = runtime;
        this.images = images;
        this.nodeName = nodeName;
        this.paths = paths;
        this.clock = clock;
        this.period = period;
    }

    /** Starts collecting: a first round at once, then one every period. Idempotent. */
    public synchronized void start() {
        if (!started) {
            started = true;
            scheduler.scheduleWithFixedDelay(this::collectSafely, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** The latest round's stats, or empty before the first round has completed. */
    public Optional<StatsSnapshot> latest() {
        return Optional.ofNullable(latest.get());
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
        Object rootDevice = Files.getAttribute(paths.rootDir(), "unix:dev");
        return !imageDevice.equals(rootDevice);
    }

    /** Runs {@code listener} after each periodic round that succeeds, on the collector thread: it must not block. */
    public void onRound(Runnable listener) {
        roundListeners.add(listener);
    }

    private void collectSafely() {
        try {
            collect();
        } catch (RuntimeException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            log.warn("Stats collection failed: {}", message);
            latest.updateAndGet(s -> s == null ? null : s.failed(message));
            return;
        }
        roundListeners.forEach(Runnable::run);
    }

    /** One round: reads everything, stores and returns the snapshot. Called by the collector thread and tests. */
    synchronized StatsSnapshot collect() {
        List<PodSandboxStats> sandboxes = runtime.listPodSandboxStats(Map.of(Labels.NODE_NAME, nodeName));
        Instant now = clock.instant();
        FsUsage nodeFs = FsUsage.of(paths.rootDir());
        FilesystemUsage imageFs = imageFs();
        Map<String, CpuPoint> seen = new HashMap<>();
        NodeStats node = nodeStats(now, nodeFs, imageFs, seen);
        List<PodStats> pods = new ArrayList<>();
        for (PodSandboxStats sandbox : sandboxes) {
            pods.add(podStats(sandbox, now, nodeFs, imageFs, seen));
        }
        volumeUsage.retainPods(sandboxes.stream().map(s -> s.metadata().uid()).collect(java.util.stream.Collectors.toSet()));
        previousCpu.clear();
        previousCpu.putAll(seen);
        StatsSnapshot snapshot = new StatsSnapshot(now, new Summary(node, pods), sandboxes, null);
        latest.set(snapshot);
        return snapshot;
    }

    private FilesystemUsage imageFs() {
        try {
            return images.imageFsInfo();
        } catch (RuntimeException e) {
            log.debug("imageFsInfo failed: {}", e.getMessage());
            return null;
        }
    }

    private NodeStats nodeStats(Instant now, FsUsage nodeFs, FilesystemUsage imageFs, Map<String, CpuPoint> seen) {
        ProcNode.Sample s;
        try {
            s = paths.proc().sample();
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
                cpu = new CpuStats(now, nanoCores("node", now, s.cpuUsageNanos(), seen), s.cpuUsageNanos());
            }
            if (s.memoryUsageBytes() >= 0) {
                memory = new MemoryStats(now, s.memoryTotalBytes() < 0 ? null
                        : Math.max(0, s.memoryTotalBytes() - s.workingSetBytes()), s.memoryUsageBytes(),
                        s.workingSetBytes(), orNull(s.rssBytes()), orNull(s.pageFaults()), orNull(s.majorPageFaults()));
            }
        }
        FsStats fs = fsStats(now, nodeFs, orNull(nodeFs.usedBytes()), orNull(nodeFs.inodesUsed()));
        RuntimeStats runtimeStats = imageFs == null ? null : new RuntimeStats(new FsStats(now, orNull(imageFs.availableBytes()),
                orNull(imageFs.capacityBytes()), orNull(imageFs.usedBytes()), orNull(imageFs.inodesFree()),
                orNull(imageFs.inodes()), orNull(imageFs.inodesUsed())));
        long maxPid = paths.proc().maxPid();
        long curProc = paths.proc().processCount();
        RlimitStats rlimit = new RlimitStats(now, orNull(maxPid), orNull(curProc));
        return new NodeStats(nodeName, systemContainerStats(now, seen), start, cpu, memory, nodeNetwork(now), fs, runtimeStats,
                rlimit);
    }

    private List<io.jkubelet.core.stats.summary.ContainerStats> systemContainerStats(Instant now, Map<String, CpuPoint> seen) {
        if (systemContainers == null) {
            return List.of();
        }
        List<io.jkubelet.core.stats.summary.ContainerStats> out = new ArrayList<>();
        for (SystemContainers.Sample s : systemContainers.read()) {
            var c = s.cgroup();
            CpuStats cpu = c.cpuUsageNanos() < 0 ? null
                    : new CpuStats(now, nanoCores("system/" + s.name(), now, c.cpuUsageNanos(), seen), c.cpuUsageNanos());
            MemoryStats memory = c.memoryUsageBytes() < 0 ? null
                    : new MemoryStats(now, c.memoryLimitBytes() < 0 ? null : Math.max(0, c.memoryLimitBytes() - c.workingSetBytes()),
                            c.memoryUsageBytes(), c.workingSetBytes(), orNull(c.rssBytes()), orNull(c.pageFaults()),
                            orNull(c.majorPageFaults()));
            out.add(new io.jkubelet.core.stats.summary.ContainerStats(s.name(), s.startTime(), cpu, memory, null, null));
        }
        return out;
    }

    private NetworkStats nodeNetwork(Instant now) {
        Path netDev = paths.proc().root().resolve("net/dev");
        try {
            return network(NetworkUsage.of(now, NetDev.parse(PseudoFiles.read(netDev))));
        } catch (IOException e) {
            return null;
        }
    }

    private PodStats podStats(PodSandboxStats sandbox, Instant now, FsUsage nodeFs, FilesystemUsage imageFs,
                              Map<String, CpuPoint> seen) {
        var meta = sandbox.metadata();
        Path podLogDir = paths.podLogsDir().resolve(meta.namespace() + "_" + meta.name() + "_" + meta.uid());
        List<io.jkubelet.core.stats.summary.ContainerStats> containers = new ArrayList<>();
        long podCpu = 0;
        boolean anyCpu = false;
        Instant cpuTime = null;
        long[] mem = new long[5];
        boolean anyMemory = false;
        Instant memTime = null;
        long processes = 0;
        boolean anyProcess = false;
        long ephemeralBytes = 0;
        long ephemeralInodes = 0;
        List<ContainerStats> all = new ArrayList<>(sandbox.containers());
        if (sandbox.infra() != null) {
            all.add(sandbox.infra());
        }
        for (ContainerStats c : all) {
            boolean infra = c == sandbox.infra();
            if (c.cpu() != null) {
                podCpu += c.cpu().usageCoreNanoSeconds();
                anyCpu = true;
                cpuTime = c.cpu().timestamp();
            }
            if (c.memory() != null) {
                MemoryUsage m = c.memory();
                mem[0] += m.usageBytes();
                mem[1] += m.workingSetBytes();
                mem[2] += m.rssBytes();
                mem[3] += m.pageFaults();
                mem[4] += m.majorPageFaults();
                anyMemory = true;
                memTime = m.timestamp();
            }
            if (c.processCount() != null) {
                processes += c.processCount();
                anyProcess = true;
            }
            if (infra) {
                continue;
            }
            FsStats rootfs = null;
            if (c.writableLayer() != null) {
                rootfs = imageFsStats(c.writableLayer().timestamp(), imageFs, c.writableLayer().usedBytes(),
                        c.writableLayer().inodesUsed());
                ephemeralBytes += c.writableLayer().usedBytes();
                ephemeralInodes += c.writableLayer().inodesUsed();
            }
            DirUsage logUsage = DirUsage.of(podLogDir.resolve(c.metadata().name()), true);
            ephemeralBytes += logUsage.bytes();
            ephemeralInodes += logUsage.inodes();
            containers.add(new io.jkubelet.core.stats.summary.ContainerStats(c.metadata().name(), c.startedAt(),
                    cpuStats(c.id(), c.cpu(), seen), memoryStats(c.memory()), rootfs,
                    fsStats(now, nodeFs, logUsage.bytes(), logUsage.inodes())));
        }
        List<VolumeStats> volumes = new ArrayList<>();
        Path emptyDirs = new PodDirs(paths.rootDir()).volumesDir(meta.uid()).resolve(EMPTY_DIR_PLUGIN);
        for (PodVolumeUsage.Volume v : volumeUsage.volumes(meta.uid(), emptyDirs, now)) {
            ephemeralBytes += v.usage().bytes();
            ephemeralInodes += v.usage().inodes();
            volumes.add(new VolumeStats(fsStats(v.measured(), nodeFs, v.usage().bytes(), v.usage().inodes()), v.name(), null));
        }
        CpuStats cpu = anyCpu ? new CpuStats(cpuTime, nanoCores("pod/" + meta.uid(), cpuTime, podCpu, seen), podCpu) : null;
        MemoryStats memory = anyMemory ? new MemoryStats(memTime, null, mem[0], mem[1], mem[2], mem[3], mem[4]) : null;
        return new PodStats(new PodReference(meta.name(), meta.namespace(), meta.uid()), sandbox.createdAt(), containers,
                cpu, memory, sandbox.network() == null ? null : network(sandbox.network()), volumes,
                fsStats(now, nodeFs, ephemeralBytes, ephemeralInodes), anyProcess ? new ProcessStats(processes) : null);
    }

    private CpuStats cpuStats(String key, CpuUsage cpu, Map<String, CpuPoint> seen) {
        if (cpu == null) {
            return null;
        }
        Long rate = cpu.usageNanoCores() != null ? cpu.usageNanoCores()
                : nanoCores(key, cpu.timestamp(), cpu.usageCoreNanoSeconds(), seen);
        if (cpu.usageNanoCores() != null) {
            seen.put(key, new CpuPoint(cpu.timestamp(), cpu.usageCoreNanoSeconds()));
        }
        return new CpuStats(cpu.timestamp(), rate, cpu.usageCoreNanoSeconds());
    }

    /**
     * The average rate since the previous round, in nanoseconds of CPU per second; {@code null} in the first
     * round or when the counter went back (the container was replaced under the same key).
     */
    private Long nanoCores(String key, Instant time, long usageNanos, Map<String, CpuPoint> seen) {
        seen.put(key, new CpuPoint(time, usageNanos));
        CpuPoint before = previousCpu.get(key);
        if (before == null || usageNanos < before.usageNanos()) {
            return null;
        }
        long elapsed = Duration.between(before.time(), time).toNanos();
        if (elapsed <= 0) {
            return null;
        }
        return (long) ((usageNanos - before.usageNanos()) * 1e9 / elapsed);
    }

    private static MemoryStats memoryStats(MemoryUsage m) {
        if (m == null) {
            return null;
        }
        Long available = m.limitBytes() == null ? null : Math.max(0, m.limitBytes() - m.workingSetBytes());
        return new MemoryStats(m.timestamp(), available, m.usageBytes(), m.workingSetBytes(), m.rssBytes(),
                m.pageFaults(), m.majorPageFaults());
    }

    private static NetworkStats network(NetworkUsage usage) {
        List<InterfaceStats> interfaces = new ArrayList<>();
        InterfaceStats defaultInterface = null;
        for (NetworkInterfaceUsage i : usage.interfaces()) {
            InterfaceStats s = new InterfaceStats(i.name(), i.rxBytes(), i.rxErrors(), i.txBytes(), i.txErrors());
            interfaces.add(s);
            if (i.name().equals(NetworkUsage.DEFAULT_INTERFACE)) {
                defaultInterface = s;
            }
        }
        return new NetworkStats(usage.timestamp(), defaultInterface, interfaces);
    }

    /** Usage on the node's root file system: capacity and free space of the file system, {@code used} of the item. */
    private static FsStats fsStats(Instant now, FsUsage fs, Long used, Long inodesUsed) {
        return new FsStats(now, orNull(fs.availableBytes()), orNull(fs.capacityBytes()), used, orNull(fs.inodesFree()),
                orNull(fs.inodes()), inodesUsed);
    }

    private static FsStats imageFsStats(Instant time, FilesystemUsage fs, long used, long inodesUsed) {
        if (fs == null) {
            return new FsStats(time, null, null, used, null, null, inodesUsed);
        }
        return new FsStats(time, orNull(fs.availableBytes()), orNull(fs.capacityBytes()), used, orNull(fs.inodesFree()),
                orNull(fs.inodes()), inodesUsed);
    }

    private static Long orNull(long v) {
        return v < 0 ? null : v;
    }

    @Override
    public synchronized void close() {
        scheduler.shutdownNow();
    }
}
