package io.jkubelet.core.cm.cpumanager;

import io.jkubelet.core.apis.config.CpuSet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * Upstream's {@code takeByTopologyNUMAPacked} (v1.30's {@code cpu_assignment.go}): the CPUs a container gets, taken
 * from the free ones whole NUMA nodes and sockets first (NUMA nodes first when a NUMA node holds one or more sockets,
 * sockets first when a socket holds several NUMA nodes), then whole cores, then single threads, each level taken from
 * the group with the fewest free CPUs first, ties by the lower ID, so that allocations pack rather than spread.
 */
public final class CpuAccumulator {
    private final CpuTopology topo;
    private final boolean numaFirst;
    private CpuTopology free;
    private CpuSet result = CpuSet.EMPTY;
    private int needed;

    private CpuAccumulator(CpuTopology topo, CpuSet available, int needed) {
        this.topo = topo;
        this.free = topo.keepOnly(available);
        this.needed = needed;
        this.numaFirst = topo.numSockets() >= topo.numNumaNodes();
    }

    /**
     * {@code numCpus} CPUs of {@code available}.
     *
     * @throws IllegalStateException with upstream's message when there are not enough
     */
    public static CpuSet take(CpuTopology topo, CpuSet available, int numCpus) {
        CpuAccumulator acc = new CpuAccumulator(topo, available, numCpus);
        if (acc.satisfied()) {
            return acc.result;
        }
        if (acc.needed > acc.free.details().size()) {
            throw new IllegalStateException("not enough cpus available to satisfy request: requested=" + numCpus
                    + ", available=" + available.size());
        }
        if (acc.numaFirst) {
            acc.takeFullNumaNodes();
            acc.takeFullSockets();
        } else {
            acc.takeFullSockets();
            acc.takeFullNumaNodes();
        }
        acc.takeFullCores();
        acc.takeRemainingCpus();
        if (!acc.satisfied()) {
            throw new IllegalStateException("failed to allocate cpus");
        }
        return acc.result;
    }

    private boolean satisfied() {
        return needed < 1;
    }

    private void claim(CpuSet cpus) {
        result = result.union(cpus);
        free = free.keepOnly(free.cpus().difference(result));
        needed -= cpus.size();
    }

    private void takeFullNumaNodes() {
        takeWhole(sortedNumaNodes(), topo::cpusInNumaNode,
                node -> free.cpusInNumaNode(node).size() == topo.cpusInNumaNode(node).size());
    }

    private void takeFullSockets() {
        takeWhole(sortedSockets(), topo::cpusInSocket, socket -> free.cpusInSocket(socket).size() == topo.cpusPerSocket());
    }

    private void takeFullCores() {
        takeWhole(sortedCores(), topo::cpusInCore, core -> free.cpusInCore(core).size() == topo.cpusPerCore());
    }

    /** Each group, in the order given, whose CPUs are all free and that is no more than is still needed. */
    private void takeWhole(List<Integer> groups, IntFunction<CpuSet> cpusOf, IntPredicate isFree) {
        for (int id : groups) {
            CpuSet all = cpusOf.apply(id);
            if (!satisfied() && isFree.test(id) && needed >= all.size()) {
                claim(all);
            }
        }
    }

    private void takeRemainingCpus() {
        for (int core : sortedCores()) {
            for (int cpu : free.cpusInCore(core).toList()) {
                if (satisfied()) {
                    return;
                }
                claim(CpuSet.of(cpu));
            }
        }
    }

    /** Upstream's {@code sort}: by the free CPUs each holds, ascending, then by ID. */
    private List<Integer> sorted(CpuSet ids, IntFunction<CpuSet> freeCpus) {
        List<Integer> out = new ArrayList<>(ids.toList());
        out.sort(Comparator.<Integer>comparingInt(id -> freeCpus.apply(id).size()).thenComparingInt(id -> id));
        return out;
    }

    private List<Integer> sortedNumaNodes() {
        if (numaFirst) {
            return sorted(free.numaNodes(), free::cpusInNumaNode);
        }
        List<Integer> out = new ArrayList<>();
        for (int socket : sortedSockets()) {
            out.addAll(sorted(free.numaNodesInSocket(socket), free::cpusInNumaNode));
        }
        return out;
    }

    private List<Integer> sortedSockets() {
        if (!numaFirst) {
            return sorted(free.sockets(), free::cpusInSocket);
        }
        List<Integer> out = new ArrayList<>();
        for (int node : sortedNumaNodes()) {
            out.addAll(sorted(free.socketsInNumaNode(node), free::cpusInSocket));
        }
        return out;
    }

    /** Cores below the lower of the two levels, each level in its sorted order. */
    private List<Integer> sortedCores() {
        List<Integer> out = new ArrayList<>();
        if (numaFirst) {
            for (int socket : sortedSockets()) {
                out.addAll(sorted(free.coresInSocket(socket), free::cpusInCore));
            }
        } else {
            for (int node : sortedNumaNodes()) {
                out.addAll(sorted(free.coresInNumaNode(node), free::cpusInCore));
            }
        }
        return out;
    }
}
