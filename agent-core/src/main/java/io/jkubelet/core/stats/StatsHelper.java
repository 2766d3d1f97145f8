package io.jkubelet.core.stats;

import io.jkubelet.cadvisor.FsUsage;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.MemoryUsage;
import io.jkubelet.core.runtime.NetworkInterfaceUsage;
import io.jkubelet.core.runtime.NetworkUsage;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.InterfaceStats;
import io.jkubelet.core.stats.summary.MemoryStats;
import io.jkubelet.core.stats.summary.NetworkStats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Upstream's {@code helper.go}: the readings of the runtime and of the machine as the summary's records. A reading of
 * -1 (unknown) is left out ({@code null}).
 */
final class StatsHelper {
    private StatsHelper() {}

    /** A container's memory; {@code availableBytes} is what its limit leaves of it, only when it has one. */
    static MemoryStats memoryStats(MemoryUsage m) {
        if (m == null) {
            return null;
        }
        Long available = m.limitBytes() == null ? null : Math.max(0, m.limitBytes() - m.workingSetBytes());
        return new MemoryStats(m.timestamp(), available, m.usageBytes(), m.workingSetBytes(), m.rssBytes(),
                m.pageFaults(), m.majorPageFaults());
    }

    /**
     * A network namespace's counters (upstream's {@code cadvisorInfoToNetworkStats}): every interface, and
     * {@link NetworkUsage#DEFAULT_INTERFACE} also as the default one when it is there.
     */
    static NetworkStats networkStats(NetworkUsage usage) {
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

    /**
     * Something on the node's root file system: capacity and free space are the file system's, {@code used} the item's
     * (upstream's {@code rootFsInfoToFsStats} with the item's usage).
     */
    static FsStats fsStats(Instant time, FsUsage fs, Long used, Long inodesUsed) {
        return new FsStats(time, orNull(fs.availableBytes()), orNull(fs.capacityBytes()), used, orNull(fs.inodesFree()),
                orNull(fs.inodes()), inodesUsed);
    }

    /** Something on the runtime's image file system, which may be unknown ({@code fs} null): only the item's usage then. */
    static FsStats imageFsStats(Instant time, FilesystemUsage fs, Long used, Long inodesUsed) {
        if (fs == null) {
            return new FsStats(time, null, null, used, null, null, inodesUsed);
        }
        return new FsStats(time, orNull(fs.availableBytes()), orNull(fs.capacityBytes()), used, orNull(fs.inodesFree()),
                orNull(fs.inodes()), inodesUsed);
    }

    static Long orNull(long v) {
        return v < 0 ? null : v;
    }
}
