package io.jkubelet.docker;

import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.ContainerStatus;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.runtime.NamespaceMode;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.PodSandboxState;
import io.jkubelet.core.runtime.PodSandboxStatus;
import io.jkubelet.docker.engine.ContainerInspect;
import io.jkubelet.docker.engine.ContainerSummary;
import io.jkubelet.docker.engine.HostConfig;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads CRI statuses out of Docker's inspect and list answers, with dockershim's interpretation of Docker
 * states (docker_container.go {@code ContainerStatus}, docker_sandbox.go {@code PodSandboxStatus}). Pure.
 */
final class DockerStatuses {
    private DockerStatuses() {}

    static final String REASON_COMPLETED = "Completed";
    static final String REASON_ERROR = "Error";
    static final String REASON_OOM_KILLED = "OOMKilled";
    static final String REASON_CANNOT_RUN = "ContainerCannotRun";
    /** Docker's "no time" (Go's zero time.Time). */
    private static final Instant DOCKER_ZERO_TIME = Instant.parse("0001-01-01T00:00:00Z");

    static boolean isSandbox(Map<String, String> labels) {
        return labels != null && DockerLabels.TYPE_SANDBOX.equals(labels.get(DockerLabels.CONTAINER_TYPE));
    }

    static boolean isContainer(Map<String, String> labels) {
        return labels != null && DockerLabels.TYPE_CONTAINER.equals(labels.get(DockerLabels.CONTAINER_TYPE));
    }

    static Map<String, String> labelsOf(ContainerInspect r) {
        return r.config() == null || r.config().labels() == null ? Map.of() : r.config().labels();
    }

    static PodSandboxStatus sandboxStatus(ContainerInspect r) {
        PodSandboxMetadata metadata = DockerNames.parseSandboxName(r.name()).orElseThrow(
                () -> new IllegalStateException("container " + r.id() + " is labelled a sandbox but its name \""
                        + r.name() + "\" is not a sandbox name"));
        boolean running = r.state() != null && Boolean.TRUE.equals(r.state().running());
        NamespaceOptions ns = namespaceOptions(r.hostConfig());
        String ip = running && ns.network() != NamespaceMode.NODE ? ip(r) : "";
        DockerLabels.Extracted extracted = DockerLabels.extract(labelsOf(r));
        return new PodSandboxStatus(r.id(), metadata,
                running ? PodSandboxState.SANDBOX_READY : PodSandboxState.SANDBOX_NOTREADY,
                time(r.created()), ip, List.of(), ns, extracted.labels(), extracted.annotations());
    }

    /**
     * The status of an app container.
     *
     * @param imageRepoDigests the repo digests of the container's image ({@code docker image inspect}'s
     *        RepoDigests), empty when the image is gone or came from no registry
     */
    static ContainerStatus containerStatus(ContainerInspect r, List<String> imageRepoDigests) {
        ContainerMetadata metadata = DockerNames.parseContainerName(r.name()).orElseThrow(
                () -> new IllegalStateException("container " + r.id() + " is labelled a pod's container but its"
                        + " name \"" + r.name() + "\" is not a container name"));
        ContainerInspect.ContainerState s = r.state();
        Instant createdAt = time(r.created());
        Instant startedAt = time(s.startedAt());
        Instant finishedAt = time(s.finishedAt());
        int exitCode = s.exitCode() == null ? 0 : s.exitCode().intValue();
        ContainerState state;
        String reason = "";
        String message = "";
        if (Boolean.TRUE.equals(s.running())) {
            state = ContainerState.CONTAINER_RUNNING;
        } else {
            if (finishedAt != null) {
                // It ran and exited.
                state = ContainerState.CONTAINER_EXITED;
                if (Boolean.TRUE.equals(s.oomKilled())) {
                    // An application that handles the OOM kill gracefully may even exit 0.
                    reason = REASON_OOM_KILLED;
                } else {
                    reason = exitCode == 0 ? REASON_COMPLETED : REASON_ERROR;
                }
            } else if (exitCode != 0) {
                // Docker could not start it: no finish time, but an exit code. Start and finish are set to the
                // creation time so that nobody reads a start that never happened.
                state = ContainerState.CONTAINER_EXITED;
                startedAt = createdAt;
                finishedAt = createdAt;
                reason = REASON_CANNOT_RUN;
            } else {
                state = ContainerState.CONTAINER_CREATED;
            }
            message = s.error() == null ? "" : s.error();
        }
        DockerLabels.Extracted extracted = DockerLabels.extract(labelsOf(r));
        // The reference the container was created from, as dockershim reports it (r.Config.Image): an image
        // may carry many tags, and its "first" one says nothing about what the pod asked for.
        String imageName = r.config().image();
        String logPath = labelsOf(r).getOrDefault(DockerLabels.CONTAINER_LOG_PATH, "");
        return new ContainerStatus(r.id(), metadata, state, createdAt, startedAt, finishedAt, exitCode,
                imageName, pullableImageId(r.image(), imageRepoDigests), reason, message, extracted.labels(),
                extracted.annotations(), mounts(r), logPath);
    }

    /** A sandbox as {@code docker ps} lists it, or empty when its name is not a sandbox name. */
    static Optional<PodSandbox> listedSandbox(ContainerSummary c) {
        return DockerNames.parseSandboxName(firstName(c)).map(metadata -> {
            DockerLabels.Extracted extracted = DockerLabels.extract(c.labels());
            PodSandboxState state = "running".equals(c.state())
                    ? PodSandboxState.SANDBOX_READY : PodSandboxState.SANDBOX_NOTREADY;
            return new PodSandbox(c.id(), metadata, state, Instant.ofEpochSecond(created(c)),
                    extracted.labels(), extracted.annotations());
        });
    }

    /** A container as {@code docker ps} lists it, or empty when its name is not a container name. */
    static Optional<Container> listedContainer(ContainerSummary c) {
        return DockerNames.parseContainerName(firstName(c)).map(metadata -> {
            DockerLabels.Extracted extracted = DockerLabels.extract(c.labels());
            String sandboxId = c.labels() == null ? "" : c.labels().getOrDefault(DockerLabels.SANDBOX_ID, "");
            return new Container(c.id(), sandboxId, metadata, c.image(), c.imageId(),
                    listedState(c.state()), Instant.ofEpochSecond(created(c)),
                    extracted.labels(), extracted.annotations());
        });
    }

    /** Docker's list state ({@code created}, {@code running}, {@code exited}, ...) as a CRI state. */
    static ContainerState listedState(String dockerState) {
        if (dockerState == null) {
            return ContainerState.CONTAINER_UNKNOWN;
        }
        return switch (dockerState) {
            case "created" -> ContainerState.CONTAINER_CREATED;
            case "running" -> ContainerState.CONTAINER_RUNNING;
            case "exited" -> ContainerState.CONTAINER_EXITED;
            default -> ContainerState.CONTAINER_UNKNOWN;
        };
    }

    /**
     * The image reference pod status shows as {@code imageID}, as dockershim made it:
     * {@code docker-pullable://<repo>@sha256:...} when the image came from a registry, else
     * {@code docker://sha256:...}.
     */
    static String pullableImageId(String imageId, List<String> imageRepoDigests) {
        if (imageRepoDigests != null && !imageRepoDigests.isEmpty()) {
            return "docker-pullable://" + imageRepoDigests.getFirst();
        }
        return "docker://" + imageId;
    }

    static NamespaceOptions namespaceOptions(HostConfig hc) {
        if (hc == null) {
            return NamespaceOptions.POD_DEFAULT;
        }
        return new NamespaceOptions(
                CreateSpecs.MODE_HOST.equals(hc.networkMode()) ? NamespaceMode.NODE : NamespaceMode.POD,
                CreateSpecs.MODE_HOST.equals(hc.pidMode()) ? NamespaceMode.NODE : NamespaceMode.CONTAINER,
                CreateSpecs.MODE_HOST.equals(hc.ipcMode()) ? NamespaceMode.NODE : NamespaceMode.POD);
    }

    /** The sandbox's IP on Docker's network (the default bridge), or empty. */
    static String ip(ContainerInspect r) {
        if (r.networkSettings() == null) {
            return "";
        }
        Map<String, ContainerInspect.EndpointSettings> networks = r.networkSettings().networks();
        if (networks != null) {
            for (ContainerInspect.EndpointSettings n : networks.values()) {
                if (n.ipAddress() != null && !n.ipAddress().isEmpty()) {
                    return n.ipAddress();
                }
            }
        }
        String ip = r.networkSettings().ipAddress();
        return ip == null ? "" : ip;
    }

    static List<Mount> mounts(ContainerInspect r) {
        List<Mount> mounts = new ArrayList<>();
        if (r.mounts() == null) {
            return mounts;
        }
        for (ContainerInspect.MountPoint m : r.mounts()) {
            String mode = m.mode() == null ? "" : m.mode();
            String propagation = mode.contains("rshared") ? "rshared" : mode.contains("rslave") ? "rslave" : "private";
            mounts.add(new Mount(m.destination() == null ? "" : m.destination(), m.source(),
                    !Boolean.TRUE.equals(m.rw()), propagation));
        }
        return mounts;
    }

    /** A Docker timestamp (RFC 3339 with nanoseconds), or {@code null} for Docker's zero time or none. */
    static Instant time(String dockerTime) {
        if (dockerTime == null || dockerTime.isEmpty()) {
            return null;
        }
        try {
            Instant t = Instant.parse(dockerTime);
            return t.equals(DOCKER_ZERO_TIME) ? null : t;
        } catch (DateTimeParseException e) {
            throw new IllegalStateException("Docker answered a time that is not RFC 3339: \"" + dockerTime + "\"", e);
        }
    }

    private static String firstName(ContainerSummary c) {
        return c.names() == null || c.names().isEmpty() ? null : c.names().getFirst();
    }

    private static long created(ContainerSummary c) {
        return c.created() == null ? 0 : c.created();
    }
}
