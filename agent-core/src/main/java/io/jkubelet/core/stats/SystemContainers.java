package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.CgroupReader;
import io.jkubelet.cadvisor.CgroupSample;
import io.jkubelet.core.runtime.RuntimeProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The node's system containers of the Summary ({@code systemContainers}): the cgroups the kubelet and the
 * container runtime run in, found from their processes' {@code /proc/<pid>/cgroup} as the kubelet's
 * container manager finds them when {@code kubeletCgroups}/{@code runtimeCgroups} are not set, and the cgroup
 * all pods run in ({@link #PODS}, whose memory the {@code allocatableMemory.available} eviction signal watches).
 * Read each stats round; a process that is gone or a cgroup that cannot be read is left out.
 */
public final class SystemContainers {

    /** Upstream's names ({@code SystemContainerKubelet}, {@code SystemContainerRuntime}). */
    public static final String KUBELET = "kubelet";
    public static final String RUNTIME = "runtime";
    /** The cgroup of all pods, the node allocatable one ({@code SystemContainerPods}). */
    public static final String PODS = "pods";

    /** What was read of one system container. */
    public record Sample(String name, Instant startTime, CgroupSample cgroup) {}

    private final CgroupReader cgroups;
    private final Path proc;
    private final Map<String, Supplier<OptionalLong>> pids;
    /** By system container name, a cgroup path known beforehand. */
    private final Map<String, String> paths;

    /**
     * @param pids by system container name, the pid of a process in it (empty when there is none now)
     */
    public SystemContainers(CgroupReader cgroups, Path proc, Map<String, Supplier<OptionalLong>> pids) {
        this(cgroups, proc, pids, Map.of());
    }

    private SystemContainers(CgroupReader cgroups, Path proc, Map<String, Supplier<OptionalLong>> pids,
                             Map<String, String> paths) {
        this.cgroups = cgroups;
        this.proc = proc;
        this.pids = new LinkedHashMap<>(pids);
        this.paths = new LinkedHashMap<>(paths);
    }

    /** These system containers and the {@link #PODS} one at {@code cgroupPath} (in the driver's form). */
    public SystemContainers withPods(String cgroupPath) {
        Map<String, String> more = new LinkedHashMap<>(paths);
        more.put(PODS, cgroupPath);
        return new SystemContainers(cgroups, proc, pids, more);
    }

    /**
     * The agent itself and the container runtime's daemon, the process its adapter names ({@link RuntimeProcess});
     * without one (a runtime that names no process on this machine) there is no {@link #RUNTIME} container.
     */
    public static SystemContainers of(CgroupReader cgroups, Path proc, Optional<RuntimeProcess> runtime) {
        Map<String, Supplier<OptionalLong>> pids = new LinkedHashMap<>();
        pids.put(KUBELET, () -> OptionalLong.of(ProcessHandle.current().pid()));
        runtime.ifPresent(process -> pids.put(RUNTIME, new RuntimeProcessLookup(process, proc)));
        return new SystemContainers(cgroups, proc, pids);
    }

    public List<Sample> read() {
        List<Sample> out = new ArrayList<>();
        pids.forEach((name, pid) -> {
            OptionalLong p = pid.get();
            if (p.isEmpty()) {
                return;
            }
            cgroupOf(p.getAsLong()).flatMap(cgroups::read)
                    .ifPresent(sample -> out.add(new Sample(name, startTime(p.getAsLong()), sample)));
        });
        // No process stands for these: the start time is unknown (upstream takes the cgroup's creation).
        paths.forEach((name, path) -> cgroups.read(path).ifPresent(sample -> out.add(new Sample(name, null, sample))));
        return out;
    }

    /**
     * The process's cgroup path for CPU accounting: the v2 line {@code 0::/path}, or the v1 line of the
     * {@code cpuacct} controller (the v1 reader finds cpu and memory under the same path, as they are on
     * systemd and cgroupfs hosts alike).
     */
    Optional<String> cgroupOf(long pid) {
        List<String> lines;
        try {
            lines = Files.readAllLines(proc.resolve(Long.toString(pid)).resolve("cgroup"));
        } catch (IOException e) {
            return Optional.empty();
        }
        return cgroupPath(lines, cgroups.version());
    }

    static Optional<String> cgroupPath(List<String> lines, String version) {
        for (String line : lines) {
            String[] f = line.split(":", 3);
            if (f.length < 3) {
                continue;
            }
            if (version.equals("v2") ? f[0].equals("0") && f[1].isEmpty()
                    : Arrays.asList(f[1].split(",")).contains("cpuacct")) {
                return Optional.of(f[2]);
            }
        }
        return Optional.empty();
    }

    private static Instant startTime(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().startInstant()).orElse(null);
    }
}
