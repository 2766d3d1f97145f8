package io.jkubelet.core.runtime;

import io.jkubelet.cadvisor.CgroupSample;

import java.time.Instant;
import java.util.Optional;

/**
 * A container's usage read from its cgroup, in the port's records: how an adapter that reads the cgroups itself (as
 * dockershim's kubelet had cAdvisor read them) fills the usage of a {@link ContainerStats}. A part the hierarchy does
 * not provide, or all of them when the cgroup could not be read, is {@code null}.
 */
public record CgroupUsage(CpuUsage cpu, MemoryUsage memory, Long processCount, ContainerResourceSpec spec) {
    private static final CgroupUsage NONE = new CgroupUsage(null, null, null, null);

    /** The usage {@code sample} shows at {@code now}; every part null when there is no sample. */
    public static CgroupUsage of(Optional<CgroupSample> sample, Instant now) {
        return sample.map(s -> of(s, now)).orElse(NONE);
    }

    private static CgroupUsage of(CgroupSample s, Instant now) {
        CpuUsage cpu = s.cpuUsageNanos() < 0 ? null : new CpuUsage(now, s.cpuUsageNanos(), null);
        MemoryUsage memory = s.memoryUsageBytes() < 0 ? null : new MemoryUsage(now, s.workingSetBytes(),
                s.memoryUsageBytes(), Math.max(0, s.rssBytes()), Math.max(0, s.pageFaults()),
                Math.max(0, s.majorPageFaults()), s.memoryLimitBytes() < 0 ? null : s.memoryLimitBytes());
        // cAdvisor's container spec: no negative counts, no limit is 0 (the CFS quota keeps -1 for none)
        ContainerResourceSpec spec = new ContainerResourceSpec(Math.max(0, s.cpuShares()),
                Math.max(0, s.cpuPeriodMicros()), s.cpuQuotaMicros(), Math.max(0, s.memoryLimitBytes()));
        return new CgroupUsage(cpu, memory, s.processes(), spec);
    }
}
