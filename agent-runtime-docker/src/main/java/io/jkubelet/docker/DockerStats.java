package io.jkubelet.docker;

import io.jkubelet.cadvisor.DirUsage;
import io.jkubelet.cadvisor.LazyCgroupReader;
import io.jkubelet.cadvisor.NetDev;
import io.jkubelet.core.runtime.CgroupUsage;
import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.ContainerStats;
import io.jkubelet.core.runtime.NetworkUsage;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxStats;
import io.jkubelet.core.runtime.WritableLayerUsage;
import io.jkubelet.docker.engine.ContainerInspect;
import io.jkubelet.docker.engine.DockerEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
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
 * The stats half of the adapter: what dockershim gave the kubelet through cAdvisor. A container's usage is read
 * from its cgroup (the path follows from Docker's cgroup driver and the container's cgroup parent), its
 * writable layer is measured in the storage driver's directory, and a sandbox's network counters come from
 * {@code /proc/<sandbox pid>/net/dev}, i.e. from inside its network namespace. Needs the engine on this host;
 * otherwise usage is missing, never wrong. Thread-safe: the only state is the engine's settings, read once.
 */
final class DockerStats {
    private static final Logger log = LoggerFactory.getLogger(DockerStats.class);

    private final DockerEngine engine;
    private final Clock clock;
    private final Path proc;
    private final DockerHost host;
    private final LazyCgroupReader cgroups;
    /**
     * What an inspection told about each container listed in the last round. None of it changes while a
     * container runs (a restart makes a new container), so each container is inspected once, and a round
     * costs two list calls however many pods run.
     */
    private final Map<String, Inspected> inspected = new ConcurrentHashMap<>();

    /** The parts of {@code docker inspect} that stats need. */
    record Inspected(String id, long pid, Instant startedAt, String cgroupParent, String name, String image) {
        static Inspected of(ContainerInspect r) {
            Long pid = r.state() == null ? null : r.state().pid();
            return new Inspected(r.id(), pid == null ? 0 : pid,
                    r.state() == null ? null : DockerStatuses.time(r.state().startedAt()),
                    r.hostConfig() == null ? null : r.hostConfig().cgroupParent(),
                    r.name() == null ? r.id() : r.name().replaceFirst("^/", ""),
                    r.config() == null ? "" : r.config().image());
        }
    }

    DockerStats(DockerEngine engine, DockerHost host, Clock clock, Path proc, Path cgroupRoot) {
        this.engine = engine;
        this.host = host;
        this.clock = clock;
        this.proc = proc;
        this.cgroups = new LazyCgroupReader(cgroupRoot);
    }

    List<PodSandboxStats> list(List<PodSandbox> sandboxes, List<Container> containers) {
        Map<String, List<Container>> bySandbox = containers.stream()
                .collect(Collectors.groupingBy(Container::podSandboxId));
        Set<String> listed = new HashSet<>();
        sandboxes.forEach(s -> listed.add(s.id()));
        containers.forEach(c -> listed.add(c.id()));
        inspected.keySet().retainAll(listed);
        List<PodSandboxStats> result = new ArrayList<>();
        for (PodSandbox sandbox : sandboxes) {
            Optional<Inspected> pause = inspect(sandbox.id());
            if (pause.isEmpty()) {
                continue;
            }
            ContainerStats infra = containerStats(pause.get(), sandbox.id(),
                    new ContainerMetadata("POD", sandbox.metadata().attempt()), sandbox.labels(), null);
            List<ContainerStats> members = new ArrayList<>();
            for (Container c : bySandbox.getOrDefault(sandbox.id(), List.of())) {
                inspect(c.id()).ifPresent(r -> members.add(containerStats(r, sandbox.id(), c.metadata(), c.labels(), c.image())));
            }
            result.add(new PodSandboxStats(sandbox.id(), sandbox.metadata(), sandbox.labels(), sandbox.createdAt(), infra,
                    network(pause.get()), members));
        }
        return result;
    }

    private Optional<Inspected> inspect(String id) {
        Inspected known = inspected.get(id);
        if (known != null) {
            return Optional.of(known);
        }
        try {
            Inspected fresh = Inspected.of(engine.containers().inspect(id));
            inspected.put(id, fresh);
            return Optional.of(fresh);
        } catch (RuntimeException e) {
            if (DockerErrors.isNotFound(e)) {
                return Optional.empty(); // removed since it was listed
            }
            throw DockerErrors.translate("inspect container " + id, e);
        }
    }

    private ContainerStats containerStats(Inspected r, String sandboxId,
                                          ContainerMetadata metadata, Map<String, String> labels,
                                          String image) {
        DockerHost.Settings settings = host.settings();
        String cgroupPath = CgroupParents.containerCgroup(settings.cgroupDriver(), r.cgroupParent(), r.id());
        Instant now = clock.instant();
        CgroupUsage usage = CgroupUsage.of(cgroups.get().flatMap(reader -> reader.read(cgroupPath)), now);
        String shownImage = image != null ? image : r.image();
        return new ContainerStats(r.id(), sandboxId, metadata, labels, r.name(), cgroupPath, shownImage, r.startedAt(),
                usage.cpu(), usage.memory(), writableLayer(settings, r.id(), now), usage.processCount(), usage.spec());
    }

    /** The container's own layer on overlay2: {@code <root>/overlay2/<mount-id>/diff}. Other drivers: unknown. */
    private static WritableLayerUsage writableLayer(DockerHost.Settings settings, String id, Instant now) {
        if (settings.rootDir() == null || !"overlay2".equals(settings.storageDriver())) {
            return null;
        }
        Path root = Path.of(settings.rootDir());
        try {
            String mountId = Files.readString(root.resolve("image/overlay2/layerdb/mounts").resolve(id).resolve("mount-id")).strip();
            DirUsage usage = DirUsage.of(root.resolve("overlay2").resolve(mountId).resolve("diff"));
            return new WritableLayerUsage(now, usage.bytes(), usage.inodes());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The counters of the sandbox's network namespace, read through its process; null when it has none. */
    private NetworkUsage network(Inspected sandbox) {
        long pid = sandbox.pid();
        if (pid <= 0) {
            return null;
        }
        try {
            return NetworkUsage.of(clock.instant(), NetDev.ofProcess(proc, pid));
        } catch (IOException e) {
            log.debug("cannot read the network counters of sandbox {} (pid {}): {}", sandbox.id(), pid, e.getMessage());
            return null;
        }
    }
}
