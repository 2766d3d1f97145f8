package io.jkubelet.docker;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.HostConfig;
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

    static Map<String, String> labelsOf(InspectContainerResponse r) {
        return r.getConfig() == null || r.getConfig().getLabels() == null ? Map.of() : r.getConfig().getLabels();
    }

    static PodSandboxStatus sandboxStatus(InspectContainerResponse r) {
        PodSandboxMetadata metadata = DockerNames.parseSandboxName(r.getName()).orElseThrow(
                () -> new IllegalStateException("container " + r.getId() + " is labelled a sandbox but its name \""
                        + r.getName() + "\" is not a sandbox name"));
        boolean running = Boolean.TRUE.equals(r.getState().getRunning());
        NamespaceOptions ns = namespaceOptions(r.getHostConfig());
        String ip = running && ns.network() != NamespaceMode.NODE ? ip(r) : "";
        DockerLabels.Extracted extracted = DockerLabels.extract(labelsOf(r));
        return new PodSandboxStatus(r.getId(), metadata,
                running ? PodSandboxState.SANDBOX_READY : PodSandboxState.SANDBOX_NOTREADY,
                time(r.getCreated()), ip, List.of(), ns, extracted.labels(), extracted.annotations());
    }

    /**
     * The status of an app container.
     *
     * @param imageRepoDigests the repo digests of the container's image ({@code docker image inspect}'s
     *        RepoDigests), empty when the image is gone or came from no registry
     */
    static ContainerStatus containerStatus(InspectContainerResponse r, List<String> imageRepoDigests) {
        ContainerMetadata metadata = DockerNames.parseContainerName(r.getName()).orElseThrow(
                () -> new IllegalStateException("container " + r.getId() + " is labelled a pod's container but its"
                        + " name \"" + r.getName() + "\" is not a container name"));
        InspectContainerResponse.ContainerState s = r.getState();
        Instant createdAt = time(r.getCreated());
        Instant startedAt = time(s.getStartedAt());
        Instant finishedAt = time(s.getFinishedAt());
        int exitCode = s.getExitCodeLong() == null ? 0 : s.getExitCodeLong().intValue();
        ContainerState state;
        String reason = "";
        String message = "";
        if (Boolean.TRUE.equals(s.getRunning())) {
            state = ContainerState.CONTAINER_RUNNING;
        } else {
            if (finishedAt != null) {
                // It ran and exited.
                state = ContainerState.CONTAINER_EXITED;
                if (Boolean.TRUE.equals(s.getOOMKilled())) {
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
            message = s.getError() == null ? "" : s.getError();
        }
        DockerLabels.Extracted extracted = DockerLabels.extract(labelsOf(r));
        // The reference the container was created from, as dockershim reports it (r.Config.Image): an image
        // may carry many tags, and its "first" one says nothing about what the pod asked for.
        String imageName = r.getConfig().getImage();
        String logPath = labelsOf(r).getOrDefault(DockerLabels.CONTAINER_LOG_PATH, "");
        return new ContainerStatus(r.getId(), metadata, state, createdAt, startedAt, finishedAt, exitCode,
                imageName, pullableImageId(r.getImageId(), imageRepoDigests), reason, message, extracted.labels(),
                extracted.annotations(), mounts(r), logPath);
    }

    /** A sandbox as {@code docker ps} lists it, or empty when its name is not a sandbox name. */
    static Optional<PodSandbox> listedSandbox(com.github.dockerjava.api.model.Container c) {
        return DockerNames.parseSandboxName(firstName(c)).map(metadata -> {
            DockerLabels.Extracted extracted = DockerLabels.extract(c.getLabels());
            PodSandboxState state = "running".equals(c.getState())
                    ? PodSandboxState.SANDBOX_READY : PodSandboxState.SANDBOX_NOTREADY;
            return new PodSandbox(c.getId(), metadata, state, Instant.ofEpochSecond(c.getCreated()),
                    extracted.labels(), extracted.annotations());
        });
    }

    /** A container as {@code docker ps} lists it, or empty when its name is not a container name. */
    static Optional<Container> listedContainer(com.github.dockerjava.api.model.Container c) {
        return DockerNames.parseContainerName(firstName(c)).map(metadata -> {
            DockerLabels.Extracted extracted = DockerLabels.extract(c.getLabels());
            String sandboxId = c.getLabels() == null ? "" : c.getLabels().getOrDefault(DockerLabels.SANDBOX_ID, "");
            return new Container(c.getId(), sandboxId, metadata, c.getImage(), c.getImageId(),
                    listedState(c.getState()), Instant.ofEpochSecond(c.getCreated()),
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
                CreateSpecs.MODE_HOST.equals(hc.getNetworkMode()) ? NamespaceMode.NODE : NamespaceMode.POD,
                CreateSpecs.MODE_HOST.equals(hc.getPidMode()) ? NamespaceMode.NODE : NamespaceMode.CONTAINER,
                CreateSpecs.MODE_HOST.equals(hc.getIpcMode()) ? NamespaceMode.NODE : NamespaceMode.POD);
    }

    /** The sandbox's IP on Docker's network (the default bridge), or empty. */
    static String ip(InspectContainerResponse r) {
        if (r.getNetworkSettings() == null) {
            return "";
        }
        Map<String, ContainerNetwork> networks = r.getNetworkSettings().getNetworks();
        if (networks != null) {
            for (ContainerNetwork n : networks.values()) {
                if (n.getIpAddress() != null && !n.getIpAddress().isEmpty()) {
                    return n.getIpAddress();
                }
            }
        }
        String ip = r.getNetworkSettings().getIpAddress();
        return ip == null ? "" : ip;
    }

    static List<Mount> mounts(InspectContainerResponse r) {
        List<Mount> mounts = new ArrayList<>();
        if (r.getMounts() == null) {
            return mounts;
        }
        for (InspectContainerResponse.Mount m : r.getMounts()) {
            String mode = m.getMode() == null ? "" : m.getMode();
            String propagation = mode.contains("rshared") ? "rshared" : mode.contains("rslave") ? "rslave" : "private";
            mounts.add(new Mount(m.getDestination() == null ? "" : m.getDestination().getPath(), m.getSource(),
                    !Boolean.TRUE.equals(m.getRW()), propagation));
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

    private static String firstName(com.github.dockerjava.api.model.Container c) {
        return c.getNames() == null || c.getNames().length == 0 ? null : c.getNames()[0];
    }
}
