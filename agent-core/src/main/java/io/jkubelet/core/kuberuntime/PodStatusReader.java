package io.jkubelet.core.kuberuntime;

import io.jkubelet.core.container.ContainerStatus;
import io.jkubelet.core.container.RuntimePodStatus;
import io.jkubelet.core.container.SandboxStatus;
import io.jkubelet.core.container.State;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.Labels;
import io.jkubelet.core.runtime.Mount;
import io.jkubelet.core.runtime.NamespaceMode;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.PodSandboxState;
import io.jkubelet.core.runtime.PodSandboxStatus;
import io.jkubelet.core.runtime.RuntimeService;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A pod's state as the runtime has it (upstream {@code GetPodStatus}): its sandboxes, newest attempt first, and
 * its containers with their termination messages. Thread-safe.
 */
final class PodStatusReader {
    /** The last 4 KiB of a termination message file are kept (upstream {@code MaxContainerTerminationMessageLength}). */
    static final int MAX_TERMINATION_MESSAGE_LENGTH = 4096;

    private final RuntimeService runtime;
    private final NodeScope scope;
    private final String runtimeType;

    PodStatusReader(RuntimeService runtime, NodeScope scope, String runtimeType) {
        this.runtime = runtime;
        this.scope = scope;
        this.runtimeType = runtimeType;
    }

    /** Everything the runtime has of one pod (upstream {@code GetPodStatus}). */
    RuntimePodStatus getPodStatus(String uid, String name, String namespace) {
        List<SandboxStatus> sandboxes = new ArrayList<>();
        List<String> ips = List.of();
        for (PodSandbox sb : runtime.listPodSandbox(scope.scoped(PodSandboxFilter.forPodUid(uid)))) {
            PodSandboxStatus st;
            try {
                st = runtime.podSandboxStatus(sb.id());
            } catch (NotFoundException e) {
                continue;
            }
            List<String> sbIps = new ArrayList<>();
            if (!st.ip().isEmpty()) {
                sbIps.add(st.ip());
            }
            sbIps.addAll(st.additionalIps());
            boolean ready = st.state() == PodSandboxState.SANDBOX_READY;
            boolean hostNetwork = st.namespaceOptions() != null && st.namespaceOptions().network() == NamespaceMode.NODE;
            sandboxes.add(new SandboxStatus(st.id(), st.metadata().attempt(), ready, st.createdAt(), sbIps, hostNetwork));
        }
        sandboxes.sort((a, b) -> Integer.compare(b.attempt(), a.attempt()));
        for (SandboxStatus s : sandboxes) {
            if (s.ready()) {
                ips = s.ips();
                break;
            }
        }
        List<ContainerStatus> containers = new ArrayList<>();
        for (var c : runtime.listContainers(scope.scoped(ContainerFilter.forPodUid(uid)))) {
            try {
                containers.add(toStatus(runtime.containerStatus(c.id()), c.podSandboxId()));
            } catch (NotFoundException e) {
                // removed between list and inspect
            }
        }
        return new RuntimePodStatus(uid, name, namespace, ips, sandboxes, containers);
    }

    private ContainerStatus toStatus(io.jkubelet.core.runtime.ContainerStatus s, String sandboxId) {
        Map<String, String> a = s.annotations();
        int restartCount = parseInt(a.get(Labels.CONTAINER_RESTART_COUNT));
        String tmPath = a.getOrDefault(Labels.CONTAINER_TERMINATION_MESSAGE_PATH, "");
        String message = s.message();
        State state = State.of(s.state());
        if (state == State.EXITED) {
            // As upstream's convertToKubeContainerStatus: the file's message, or for FallbackToLogsOnError
            // with an empty file the log tail, is appended to the runtime's own message. A container that
            // could not even run has no logs to fall back to.
            boolean fallbackToLogs = "FallbackToLogsOnError".equals(a.get(Labels.CONTAINER_TERMINATION_MESSAGE_POLICY))
                    && s.exitCode() != 0 && !"ContainerCannotRun".equals(s.reason());
            TerminationMessage tm = terminationMessage(s.mounts(), tmPath, fallbackToLogs);
            String text = tm.checkLogs() ? LogTail.tail(s.logPath()) : tm.message();
            if (!text.isEmpty()) {
                message = message == null || message.isEmpty() ? text : message + ": " + text;
            }
        }
        return new ContainerStatus(s.id(), runtimeType, s.metadata().name(), state, s.createdAt(), s.startedAt(),
                s.finishedAt(), s.exitCode(), s.image(), s.imageRef(), a.getOrDefault(Labels.CONTAINER_HASH, ""),
                restartCount, s.reason(), message, sandboxId, tmPath, s.logPath());
    }

    /** A termination message file's text, or that the log tail must be read instead. */
    record TerminationMessage(String message, boolean checkLogs) {}

    /**
     * Reads the last {@value #MAX_TERMINATION_MESSAGE_LENGTH} bytes of the termination message file
     * (upstream {@code getTerminationMessage} with {@code tail.ReadAtMost}).
     */
    static TerminationMessage terminationMessage(List<Mount> mounts, String tmPath, boolean fallbackToLogs) {
        if (tmPath.isEmpty()) {
            return new TerminationMessage("", fallbackToLogs);
        }
        for (Mount m : mounts) {
            if (!m.containerPath().equals(tmPath)) {
                continue;
            }
            Path p = Path.of(m.hostPath());
            try (var ch = Files.newByteChannel(p)) {
                long size = ch.size();
                int n = (int) Math.min(size, MAX_TERMINATION_MESSAGE_LENGTH);
                ch.position(size - n);
                var buf = ByteBuffer.allocate(n);
                while (buf.hasRemaining() && ch.read(buf) >= 0) {
                    // read the tail fully
                }
                String text = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
                return new TerminationMessage(text, fallbackToLogs && text.isEmpty());
            } catch (NoSuchFileException e) {
                return new TerminationMessage("", fallbackToLogs);
            } catch (IOException e) {
                return new TerminationMessage("Error on reading termination log " + p + ": " + e.getMessage(), false);
            }
        }
        return new TerminationMessage("", fallbackToLogs);
    }

    private static int parseInt(String s) {
        try {
            return s == null ? 0 : Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
