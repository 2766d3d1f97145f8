package io.jkubelet.core.stats.history;

import io.jkubelet.core.stats.StatsSnapshot;
import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.CpuStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.InterfaceStats;
import io.jkubelet.core.stats.summary.MemoryStats;
import io.jkubelet.core.stats.summary.NetworkStats;
import io.jkubelet.core.stats.summary.PodReference;
import io.jkubelet.core.stats.summary.PodStats;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The node's, each pod's and each container's usage over the last {@link #WINDOW}, one sample per stats round:
 * what the dashboard charts and {@code /stats/history} serves. cAdvisor kept such a history in memory for its
 * page on port 4194; the kubelet's summary only has the latest round.
 *
 * <p>Bounded: each series is a {@link UsageRing} of {@code WINDOW / period} samples; a pod no round has reported
 * for a whole window is dropped, and at most {@link #MAX_PODS} pods are kept (the least recently seen go first),
 * so pods that come and go cannot grow it.
 *
 * <p>Thread-safe: {@link #record} runs on the stats thread after each round; readers read copies.
 */
public final class StatsHistory {
    /** How far back the history goes: cAdvisor's page showed about this much. */
    public static final Duration WINDOW = Duration.ofMinutes(15);
    /** A node's pods (110 by default) and, for a window, as many that were replaced: beyond that the oldest go. */
    static final int MAX_PODS = 256;

    private final int capacity;
    private final UsageRing node;
    private final Map<String, PodHistory> pods = new ConcurrentHashMap<>();

    /** One pod's series, by container name. */
    private record PodHistory(PodReference ref, UsageRing pod, Map<String, UsageRing> containers) {}

    /** @param period the stats provider's period: one sample per round fills the window */
    public StatsHistory(Duration period) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("stats period must be positive, got " + period);
        }
        this.capacity = (int) Math.max(1, WINDOW.toMillis() / period.toMillis());
        this.node = new UsageRing(capacity);
    }

    /** Samples per series. */
    public int capacity() {
        return capacity;
    }

    /** Adds one round's numbers to every series, and drops pods that no round has reported for a window. */
    public void record(StatsSnapshot snapshot) {
        long now = snapshot.collectedAt().toEpochMilli();
        var n = snapshot.summary().node();
        long[] net = network(n.network(), true);
        node.record(now, cpu(n.cpu()), memory(n.memory()), net[0], net[1], used(n.fs()));
        for (PodStats p : snapshot.summary().pods()) {
            PodHistory h = pods.computeIfAbsent(p.podRef().uid(),
                    uid -> new PodHistory(p.podRef(), new UsageRing(capacity), new ConcurrentHashMap<>()));
            long[] podNet = network(p.network(), false);
            h.pod().record(now, cpu(p.cpu()), memory(p.memory()), podNet[0], podNet[1], used(p.ephemeralStorage()));
            for (ContainerStats c : p.containers()) {
                long fs = sum(used(c.rootfs()), used(c.logs()));
                h.containers().computeIfAbsent(c.name(), name -> new UsageRing(capacity))
                        .record(now, cpu(c.cpu()), memory(c.memory()), UsageRing.MISSING, UsageRing.MISSING, fs);
            }
        }
        forgetOld(now);
    }

    private void forgetOld(long now) {
        long oldest = now - WINDOW.toMillis();
        pods.values().removeIf(h -> h.pod().lastMillis() < oldest);
        if (pods.size() > MAX_PODS) {
            pods.values().stream().sorted(Comparator.comparingLong(h -> h.pod().lastMillis()))
                    .limit(pods.size() - MAX_PODS).toList()
                    .forEach(h -> pods.remove(h.ref().uid()));
        }
    }

    /** The node's series. */
    public UsageRing.Series node() {
        return node.read();
    }

    /** The pods with a history, most recently seen first where two share a name. */
    public List<PodReference> pods() {
        return pods.values().stream().sorted(Comparator.comparingLong((PodHistory h) -> -h.pod().lastMillis()))
                .map(PodHistory::ref).toList();
    }

    /** The series of the pod {@code namespace/name} (the latest one of that name), if any round reported it. */
    public Optional<PodSeries> pod(String namespace, String name) {
        return find(namespace, name).map(h -> new PodSeries(h.ref(), h.pod().read(), h.containers().keySet().stream().sorted().toList()));
    }

    /** The series of container {@code container} of pod {@code namespace/name}, if any round reported it. */
    public Optional<UsageRing.Series> container(String namespace, String name, String container) {
        return find(namespace, name).map(h -> h.containers().get(container)).map(UsageRing::read);
    }

    private Optional<PodHistory> find(String namespace, String name) {
        return pods.values().stream()
                .filter(h -> h.ref().namespace().equals(namespace) && h.ref().name().equals(name))
                .max(Comparator.comparingLong(h -> h.pod().lastMillis()));
    }

    /** A pod's own series and the names of its containers that have one. */
    public record PodSeries(PodReference ref, UsageRing.Series series, List<String> containers) {}

    private static long cpu(CpuStats cpu) {
        return cpu == null || cpu.usageNanoCores() == null ? UsageRing.MISSING : cpu.usageNanoCores();
    }

    private static long memory(MemoryStats memory) {
        return memory == null || memory.workingSetBytes() == null ? UsageRing.MISSING : memory.workingSetBytes();
    }

    private static long used(FsStats fs) {
        return fs == null || fs.usedBytes() == null ? UsageRing.MISSING : fs.usedBytes();
    }

    private static long sum(long a, long b) {
        if (a == UsageRing.MISSING) {
            return b;
        }
        return b == UsageRing.MISSING ? a : a + b;
    }

    /** Loopback and the runtime's bridges and veth pairs carry the pods' traffic a second time, or none of the node's. */
    private static boolean physical(String name) {
        return !name.equals("lo") && !name.startsWith("veth") && !name.startsWith("docker") && !name.startsWith("br-");
    }

    /**
     * Cumulative received and sent bytes: the default interface's (a pod's {@code eth0}), or for the node, which
     * may have none of that name, every interface but loopback and the runtime's own.
     */
    private static long[] network(NetworkStats network, boolean node) {
        long[] out = {UsageRing.MISSING, UsageRing.MISSING};
        if (network == null) {
            return out;
        }
        InterfaceStats d = network.defaultInterface();
        if (d != null && !node) {
            out[0] = d.rxBytes() == null ? UsageRing.MISSING : d.rxBytes();
            out[1] = d.txBytes() == null ? UsageRing.MISSING : d.txBytes();
            return out;
        }
        for (InterfaceStats i : network.interfaces()) {
            if (!physical(i.name())) {
                continue;
            }
            out[0] = sum(out[0], i.rxBytes() == null ? UsageRing.MISSING : i.rxBytes());
            out[1] = sum(out[1], i.txBytes() == null ? UsageRing.MISSING : i.txBytes());
        }
        return out;
    }
}
