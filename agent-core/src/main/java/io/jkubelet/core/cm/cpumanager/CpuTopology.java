package io.jkubelet.core.cm.cpumanager;

import io.jkubelet.core.apis.config.CpuSet;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * The machine's CPUs as upstream's {@code topology.CPUTopology} sees them: each logical CPU's NUMA node, socket and
 * physical core (a core is named by its lowest thread, upstream's {@code getUniqueCoreID}, since core numbers repeat
 * across sockets). Immutable; {@link #keepOnly} gives the details of a subset, as {@code CPUDetails.KeepOnly}.
 *
 * @param numCpus logical CPUs of the machine
 * @param numCores physical cores
 * @param numSockets sockets
 * @param details each logical CPU's place, of the machine or of a subset
 */
public record CpuTopology(int numCpus, int numCores, int numSockets, Map<Integer, CpuInfo> details) {

    /** Where one logical CPU sits. */
    public record CpuInfo(int numaNode, int socket, int core) {}

    public CpuTopology {
        details = Collections.unmodifiableMap(new TreeMap<>(details));
    }

    /** The topology of these CPUs, counting cores and sockets from them (a described machine in tests). */
    public static CpuTopology of(Map<Integer, CpuInfo> cpus) {
        return new CpuTopology(cpus.size(), distinct(cpus, CpuInfo::core).size(), distinct(cpus, CpuInfo::socket).size(),
                cpus);
    }

    public int numNumaNodes() {
        return numaNodes().size();
    }

    /** Upstream's {@code CPUsPerCore}: 0 on a machine without cores. */
    public int cpusPerCore() {
        return numCores == 0 ? 0 : numCpus / numCores;
    }

    /** Upstream's {@code CPUsPerSocket}. */
    public int cpusPerSocket() {
        return numSockets == 0 ? 0 : numCpus / numSockets;
    }

    /** The same machine with only these CPUs in its details. */
    public CpuTopology keepOnly(CpuSet cpus) {
        Map<Integer, CpuInfo> kept = new TreeMap<>(details);
        kept.keySet().retainAll(cpus.cpus());
        return new CpuTopology(numCpus, numCores, numSockets, kept);
    }

    public CpuSet cpus() {
        return CpuSet.of(details.keySet());
    }

    public CpuSet numaNodes() {
        return CpuSet.of(distinct(details, CpuInfo::numaNode));
    }

    public CpuSet sockets() {
        return CpuSet.of(distinct(details, CpuInfo::socket));
    }

    public CpuSet cores() {
        return CpuSet.of(distinct(details, CpuInfo::core));
    }

    public CpuSet cpusInNumaNode(int node) {
        return where(i -> i.numaNode() == node);
    }

    public CpuSet cpusInSocket(int socket) {
        return where(i -> i.socket() == socket);
    }

    public CpuSet cpusInCore(int core) {
        return where(i -> i.core() == core);
    }

    public CpuSet socketsInNumaNode(int node) {
        return CpuSet.of(distinct(filtered(i -> i.numaNode() == node), CpuInfo::socket));
    }

    public CpuSet numaNodesInSocket(int socket) {
        return CpuSet.of(distinct(filtered(i -> i.socket() == socket), CpuInfo::numaNode));
    }

    public CpuSet coresInSocket(int socket) {
        return CpuSet.of(distinct(filtered(i -> i.socket() == socket), CpuInfo::core));
    }

    public CpuSet coresInNumaNode(int node) {
        return CpuSet.of(distinct(filtered(i -> i.numaNode() == node), CpuInfo::core));
    }

    /** The physical core of a CPU of the machine. */
    public int coreOf(int cpu) {
        CpuInfo info = details.get(cpu);
        if (info == null) {
            throw new IllegalArgumentException("unknown CPU ID: " + cpu);
        }
        return info.core();
    }

    private CpuSet where(Predicate<CpuInfo> p) {
        return CpuSet.of(filtered(p).keySet());
    }

    private Map<Integer, CpuInfo> filtered(Predicate<CpuInfo> p) {
        Map<Integer, CpuInfo> out = new TreeMap<>();
        details.forEach((cpu, info) -> {
            if (p.test(info)) {
                out.put(cpu, info);
            }
        });
        return out;
    }

    private static TreeSet<Integer> distinct(Map<Integer, CpuInfo> cpus, ToIntFunction<CpuInfo> key) {
        TreeSet<Integer> out = new TreeSet<>();
        cpus.values().forEach(i -> out.add(key.applyAsInt(i)));
        return out;
    }
}
