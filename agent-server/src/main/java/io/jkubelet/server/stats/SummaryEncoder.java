package io.jkubelet.server.stats;

import io.jkubelet.core.stats.summary.ContainerStats;
import io.jkubelet.core.stats.summary.CpuStats;
import io.jkubelet.core.stats.summary.FsStats;
import io.jkubelet.core.stats.summary.InterfaceStats;
import io.jkubelet.core.stats.summary.MemoryStats;
import io.jkubelet.core.stats.summary.NetworkStats;
import io.jkubelet.core.stats.summary.NodeStats;
import io.jkubelet.core.stats.summary.PodStats;
import io.jkubelet.core.stats.summary.Summary;
import io.jkubelet.core.stats.summary.VolumeStats;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Encodes a {@link Summary} as upstream's {@code stats/v1alpha1} JSON: Go's field order and names,
 * {@code omitempty} on the optional fields, inlined {@code InterfaceStats} in {@code NetworkStats} and
 * {@code FsStats} in {@code VolumeStats}. Stateless and thread-safe.
 */
public final class SummaryEncoder {

    public byte[] encode(Summary summary) {
        GoIndentJson json = new GoIndentJson().beginObject();
        json.name("node");
        node(json, summary.node());
        json.name("pods").beginArray();
        for (PodStats pod : summary.pods()) {
            json.element();
            pod(json, pod);
        }
        json.endArray().endObject();
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void node(GoIndentJson json, NodeStats n) {
        json.beginObject();
        json.name("nodeName").value(n.nodeName());
        if (!n.systemContainers().isEmpty()) {
            json.name("systemContainers");
            containers(json, n.systemContainers());
        }
        json.name("startTime").time(n.startTime());
        cpu(json, "cpu", n.cpu());
        memory(json, "memory", n.memory());
        network(json, n.network());
        fs(json, "fs", n.fs());
        if (n.runtime() != null) {
            json.name("runtime").beginObject();
            fs(json, "imageFs", n.runtime().imageFs());
            json.endObject();
        }
        if (n.rlimit() != null) {
            json.name("rlimit").beginObject().name("time").time(n.rlimit().time())
                    .optional("maxpid", n.rlimit().maxPid()).optional("curproc", n.rlimit().curProc()).endObject();
        }
        json.endObject();
    }

    private static void pod(GoIndentJson json, PodStats p) {
        json.beginObject();
        json.name("podRef").beginObject().name("name").value(p.podRef().name())
                .name("namespace").value(p.podRef().namespace()).name("uid").value(p.podRef().uid()).endObject();
        json.name("startTime").time(p.startTime());
        json.name("containers");
        containers(json, p.containers());
        cpu(json, "cpu", p.cpu());
        memory(json, "memory", p.memory());
        network(json, p.network());
        if (!p.volume().isEmpty()) {
            json.name("volume").beginArray();
            for (VolumeStats v : p.volume()) {
                json.element().beginObject();
                fsFields(json, v.fs());
                if (v.name() != null && !v.name().isEmpty()) {
                    json.name("name").value(v.name());
                }
                if (v.pvcRef() != null) {
                    json.name("pvcRef").beginObject().name("name").value(v.pvcRef().name())
                            .name("namespace").value(v.pvcRef().namespace()).endObject();
                }
                json.endObject();
            }
            json.endArray();
        }
        fs(json, "ephemeral-storage", p.ephemeralStorage());
        if (p.processStats() != null) {
            json.name("process_stats").beginObject().optional("process_count", p.processStats().processCount()).endObject();
        }
        json.endObject();
    }

    private static void containers(GoIndentJson json, List<ContainerStats> containers) {
        json.beginArray();
        for (ContainerStats c : containers) {
            json.element().beginObject();
            json.name("name").value(c.name());
            json.name("startTime").time(c.startTime());
            cpu(json, "cpu", c.cpu());
            memory(json, "memory", c.memory());
            fs(json, "rootfs", c.rootfs());
            fs(json, "logs", c.logs());
            json.endObject();
        }
        json.endArray();
    }

    private static void cpu(GoIndentJson json, String name, CpuStats cpu) {
        if (cpu != null) {
            json.name(name).beginObject().name("time").time(cpu.time())
                    .optional("usageNanoCores", cpu.usageNanoCores())
                    .optional("usageCoreNanoSeconds", cpu.usageCoreNanoSeconds()).endObject();
        }
    }

    private static void memory(GoIndentJson json, String name, MemoryStats m) {
        if (m != null) {
            json.name(name).beginObject().name("time").time(m.time())
                    .optional("availableBytes", m.availableBytes())
                    .optional("usageBytes", m.usageBytes())
                    .optional("workingSetBytes", m.workingSetBytes())
                    .optional("rssBytes", m.rssBytes())
                    .optional("pageFaults", m.pageFaults())
                    .optional("majorPageFaults", m.majorPageFaults()).endObject();
        }
    }

    private static void network(GoIndentJson json, NetworkStats n) {
        if (n == null) {
            return;
        }
        json.name("network").beginObject().name("time").time(n.time());
        // The default interface's InterfaceStats is inlined; Go writes its (non-omitempty) name even when unset.
        interfaceFields(json, n.defaultInterface() == null ? new InterfaceStats("", null, null, null, null) : n.defaultInterface());
        if (!n.interfaces().isEmpty()) {
            json.name("interfaces").beginArray();
            for (InterfaceStats i : n.interfaces()) {
                json.element().beginObject();
                interfaceFields(json, i);
                json.endObject();
            }
            json.endArray();
        }
        json.endObject();
    }

    private static void interfaceFields(GoIndentJson json, InterfaceStats i) {
        json.name("name").value(i.name()).optional("rxBytes", i.rxBytes()).optional("rxErrors", i.rxErrors())
                .optional("txBytes", i.txBytes()).optional("txErrors", i.txErrors());
    }

    private static void fs(GoIndentJson json, String name, FsStats fs) {
        if (fs != null) {
            json.name(name).beginObject();
            fsFields(json, fs);
            json.endObject();
        }
    }

    private static void fsFields(GoIndentJson json, FsStats fs) {
        json.name("time").time(fs.time())
                .optional("availableBytes", fs.availableBytes())
                .optional("capacityBytes", fs.capacityBytes())
                .optional("usedBytes", fs.usedBytes())
                .optional("inodesFree", fs.inodesFree())
                .optional("inodes", fs.inodes())
                .optional("inodesUsed", fs.inodesUsed());
    }
}
