package io.jkubelet.cri;

import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerMetadata;
import io.jkubelet.core.runtime.ContainerState;
import io.jkubelet.core.runtime.ContainerStatus;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.runtime.NamespaceMode;
import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.core.runtime.PodSandboxState;
import io.jkubelet.core.runtime.PodSandboxStatus;
import io.jkubelet.cri.v1.CriApi;

import java.time.Instant;
import java.util.List;

/** What the CRI answers, as the runtime port's records. */
final class CriToRuntime {
    private CriToRuntime() {}

    /** CRI times are nanoseconds since the epoch; 0 means "not yet" (a container not started, not finished). */
    static Instant time(long nanos) {
        return nanos == 0 ? null : Instant.ofEpochSecond(0, nanos);
    }

    static PodSandboxMetadata metadata(CriApi.PodSandboxMetadata m) {
        return new PodSandboxMetadata(m.getName(), m.getUid(), m.getNamespace(), (int) m.getAttempt());
    }

    static ContainerMetadata metadata(CriApi.ContainerMetadata m) {
        return new ContainerMetadata(m.getName(), (int) m.getAttempt());
    }

    static PodSandboxState state(CriApi.PodSandboxState s) {
        return s == CriApi.PodSandboxState.SANDBOX_READY ? PodSandboxState.SANDBOX_READY : PodSandboxState.SANDBOX_NOTREADY;
    }

    static ContainerState state(CriApi.ContainerState s) {
        return switch (s) {
            case CONTAINER_CREATED -> ContainerState.CONTAINER_CREATED;
            case CONTAINER_RUNNING -> ContainerState.CONTAINER_RUNNING;
            case CONTAINER_EXITED -> ContainerState.CONTAINER_EXITED;
            default -> ContainerState.CONTAINER_UNKNOWN;
        };
    }

    static NamespaceMode mode(CriApi.NamespaceMode m) {
        return switch (m) {
            case POD -> NamespaceMode.POD;
            case NODE -> NamespaceMode.NODE;
            default -> NamespaceMode.CONTAINER;
        };
    }

    static PodSandbox sandbox(CriApi.PodSandbox s) {
        return new PodSandbox(s.getId(), metadata(s.getMetadata()), state(s.getState()), time(s.getCreatedAt()),
                s.getLabelsMap(), s.getAnnotationsMap());
    }

    static PodSandboxStatus sandboxStatus(CriApi.PodSandboxStatus s) {
        CriApi.NamespaceOption ns = s.getLinux().getNamespaces().getOptions();
        List<String> additional = s.getNetwork().getAdditionalIpsList().stream().map(CriApi.PodIP::getIp).toList();
        return new PodSandboxStatus(s.getId(), metadata(s.getMetadata()), state(s.getState()), time(s.getCreatedAt()),
                s.getNetwork().getIp(), additional,
                new NamespaceOptions(mode(ns.getNetwork()), mode(ns.getPid()), mode(ns.getIpc())),
                s.getLabelsMap(), s.getAnnotationsMap());
    }

    static Container container(CriApi.Container c) {
        return new Container(c.getId(), c.getPodSandboxId(), metadata(c.getMetadata()), c.getImage().getImage(),
                c.getImageRef(), state(c.getState()), time(c.getCreatedAt()), c.getLabelsMap(), c.getAnnotationsMap());
    }

    static ContainerStatus containerStatus(CriApi.ContainerStatus s) {
        return new ContainerStatus(s.getId(), metadata(s.getMetadata()), state(s.getState()), time(s.getCreatedAt()),
                time(s.getStartedAt()), time(s.getFinishedAt()), s.getExitCode(), s.getImage().getImage(),
                s.getImageRef(), s.getReason(), s.getMessage(), s.getLabelsMap(), s.getAnnotationsMap(),
                s.getMountsList().stream().map(CriToRuntime::mount).toList(), s.getLogPath());
    }

    static Mount mount(CriApi.Mount m) {
        String propagation = switch (m.getPropagation()) {
            case PROPAGATION_HOST_TO_CONTAINER -> "rslave";
            case PROPAGATION_BIDIRECTIONAL -> "rshared";
            default -> "private";
        };
        return new Mount(m.getContainerPath(), m.getHostPath(), m.getReadonly(), propagation);
    }

    static Image image(CriApi.Image i) {
        return new Image(i.getId(), i.getRepoTagsList(), i.getRepoDigestsList(), i.getSize(),
                i.hasUid() ? i.getUid().getValue() : null, i.getUsername());
    }
}
