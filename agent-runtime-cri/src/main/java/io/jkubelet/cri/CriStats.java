package io.jkubelet.cri;

import io.jkubelet.cadvisor.LazyCgroupReader;
import io.jkubelet.cadvisor.NetDev;
import io.jkubelet.core.runtime.CgroupUsage;
import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.ContainerStats;
import io.jkubelet.core.runtime.NetworkUsage;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.runtime.WritableLayerUsage;
import io.jkubelet.cri.v1.CriApi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Pod usage on a CRI runtime whose CRI (v1 of Kubernetes 1.20) has no {@code ListPodSandboxStats}: as upstream's
 * kubelet with cAdvisor, CPU, memory and processes come from each container's cgroup and the network from the
 * sandbox's namespace; the writable layer from the runtime's {@code ListContainerStats}. Where each cgroup is and
 * the sandbox's process are read once per container from its verbose status (containerd's {@code info}).
 */
final class CriStats {
    private static final Logger log = LoggerFactory.getLogger(CriStats.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** What a verbose status told about a container or sandbox: it does not change while it runs. */
    record Placement(long pid, String cgroupPath) {}

    private final CriCalls calls;
    private final Clock clock;
    private final Path proc;
    private final Map<String, Placement> placements = new ConcurrentHashMap<>();
    private final LazyCgroupReader cgroups;

    CriStats(CriCalls calls, Clock clock, Path proc, Path cgroupRoot) {
        this.calls = calls;
        this.clock = clock;
        this.proc = proc;
        this.cgroups = new LazyCgroupReader(cgroupRoot);
    }

    List<PodSandboxStats> list(List<PodSandbox> sandboxes, List<Container> containers) {
        Map<String, CriApi.FilesystemUsage> layers = calls.runtime("ListContainerStats", null,
                        s -> s.listContainerStats(CriApi.ListContainerStatsRequest.getDefaultInstance()))
                .getStatsList().stream().collect(Collectors.toMap(st -> st.getAttributes().getId(),
                        CriApi.ContainerStats::getWritableLayer, (a, b) -> a));
        Map<String, List<Container>> bySandbox = containers.stream().collect(Collectors.groupingBy(Container::podSandboxId));
        Set<String> listed = new HashSet<>();
        sandboxes.forEach(s -> listed.add(s.id()));
        containers.forEach(c -> listed.add(c.id()));
        placements.keySet().retainAll(listed);
        List<PodSandboxStats> result = new ArrayList<>();
        for (PodSandbox sandbox : sandboxes) {
            Optional<Placement> pause = placement(sandbox.id(), true);
            if (pause.isEmpty()) {
                continue;
            }
            ContainerStats infra = stats(sandbox.id(), pause.get(), sandbox.id(),
                    new ContainerMetadata("POD", sandbox.metadata().attempt()), sandbox.labels(), "", null);
            List<ContainerStats> members = new ArrayList<>();
            for (Container c : bySandbox.getOrDefault(sandbox.id(), List.of())) {
                placement(c.id(), false).ifPresent(p -> members.add(
                        stats(c.id(), p, sandbox.id(), c.metadata(), c.labels(), c.image(), layers.get(c.id()))));
            }
            result.add(new PodSandboxStats(sandbox.id(), sandbox.metadata(), sandbox.labels(), sandbox.createdAt(), infra,
                    network(sandbox.id(), pause.get()), members));
        }
        return result;
    }

    private ContainerStats stats(String id, Placement p, String sandboxId, ContainerMetadata metadata,
                                 Map<String, String> labels, String image, CriApi.FilesystemUsage layer) {
        Instant now = clock.instant();
        CgroupUsage usage = CgroupUsage.of(cgroups.get().flatMap(reader -> reader.read(p.cgroupPath())), now);
        WritableLayerUsage writable = layer == null || !layer.hasUsedBytes() ? null
                : new WritableLayerUsage(CriToRuntime.time(layer.getTimestamp()), layer.getUsedBytes().getValue(),
                layer.getInodesUsed().getValue());
        return new ContainerStats(id, sandboxId, metadata, labels, "containerd", p.cgroupPath(), image, null, usage.cpu(),
                usage.memory(), writable, usage.processCount(), usage.spec());
    }

    /** The process and cgroup of a running container or sandbox, or empty when it is gone or not running. */
    private Optional<Placement> placement(String id, boolean sandbox) {
        Placement known = placements.get(id);
        if (known != null) {
            return Optional.of(known);
        }
        Map<String, String> info;
        try {
            info = sandbox
                    ? calls.runtime("PodSandboxStatus", id, s -> s.podSandboxStatus(CriApi.PodSandboxStatusRequest
                    .newBuilder().setPodSandboxId(id).setVerbose(true).build())).getInfoMap()
                    : calls.runtime("ContainerStatus", id, s -> s.containerStatus(CriApi.ContainerStatusRequest
                    .newBuilder().setContainerId(id).setVerbose(true).build())).getInfoMap();
        } catch (NotFoundException gone) {
            return Optional.empty();
        }
        String text = info.get("info");
        if (text == null) {
            log.debug("The runtime gives no verbose info for {}: no usage for it", id);
            return Optional.empty();
        }
        JsonNode node = JSON.readTree(text);
        long pid = node.path("pid").asLong(0);
        String cgroupPath = node.path("runtimeSpec").path("linux").path("cgroupsPath").asText("");
        if (pid <= 0 || cgroupPath.isEmpty()) {
            return Optional.empty();
        }
        Placement p = new Placement(pid, cgroupPath);
        placements.put(id, p);
        return Optional.of(p);
    }

    private NetworkUsage network(String sandboxId, Placement sandbox) {
        try {
            return NetworkUsage.of(clock.instant(), NetDev.ofProcess(proc, sandbox.pid()));
        } catch (IOException e) {
            log.debug("cannot read the network counters of sandbox {} (pid {}): {}", sandboxId, sandbox.pid(), e.getMessage());
            return null;
        }
    }
}
