package io.jkubelet.docker;

import io.jkubelet.core.runtime.ImagePullException;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.PodSandbox;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxFilter;
import io.jkubelet.core.runtime.PodSandboxState;
import io.jkubelet.docker.engine.ContainerInspect;
import io.jkubelet.docker.engine.ContainerSummary;
import io.jkubelet.docker.engine.DockerEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Pod sandboxes as dockershim makes them: a "pause" container that owns the pod's namespaces, whose app containers
 * are stopped (in parallel) before it and removed with it.
 */
final class DockerSandboxes {
    private static final Logger log = LoggerFactory.getLogger(DockerSandboxes.class);

    /** Docker's status filter values other than "running", i.e. a sandbox that is not ready. */
    private static final List<String> NOT_RUNNING = List.of("created", "restarting", "removing", "paused", "exited", "dead");

    private final DockerEngine engine;
    private final DockerRuntimeOptions options;
    private final DockerHost host;
    private final DockerImages images;
    private final DockerRemovals removals;
    private final ExecutorService stopper;
    private final Consumer<String> removeContainer;

    /**
     * @param stopper         where the app containers are stopped in parallel; owned by the caller
     * @param removeContainer removes one app container as the port does (its log link first)
     */
    DockerSandboxes(DockerEngine engine, DockerRuntimeOptions options, DockerHost host, DockerImages images,
                    DockerRemovals removals, ExecutorService stopper, Consumer<String> removeContainer) {
        this.engine = engine;
        this.host = host;
        this.options = options;
        this.images = images;
        this.removals = removals;
        this.stopper = stopper;
        this.removeContainer = removeContainer;
    }

    /**
     * Runs the pod's sandbox container.
     *
     * @param runtimeHandler {@code ""} or {@value DockerRuntime#RUNTIME_NAME}: Docker has no other runtime configuration
     *     a RuntimeClass could name, so any other fails with dockershim's error, before a container is made
     */
    String run(PodSandboxConfig config, String runtimeHandler) {
        Objects.requireNonNull(config, "pod sandbox config");
        CreateSpec spec = CreateSpecs.sandbox(config, options, host.cgroupDriverFor(config.cgroupParent()));
        ensureSandboxImage(config.image());
        // dockershim's order: the sandbox image is made sure of first, then the handler checked.
        if (runtimeHandler != null && !runtimeHandler.isEmpty() && !runtimeHandler.equals(DockerRuntime.RUNTIME_NAME)) {
            throw new IllegalArgumentException("RuntimeHandler \"" + runtimeHandler + "\" not supported");
        }
        String id = DockerCalls.call("create sandbox " + spec.name(),
                () -> engine.containers().create(spec.name(), spec.toConfig()).id());
        try {
            engine.containers().start(id);
        } catch (RuntimeException e) {
            throw DockerErrors.translate("start sandbox container " + id + " for pod "
                    + config.metadata().namespace() + "/" + config.metadata().name(), e);
        }
        return id;
    }

    void stop(String podSandboxId) {
        require(podSandboxId);
        List<Future<?>> stops = new ArrayList<>();
        for (ContainerSummary c : containersOf(podSandboxId, true)) {
            stops.add(stopper.submit(() -> removals.stop(c.id(), options.sandboxStopGracePeriod(), true)));
        }
        for (Future<?> stop : stops) {
            DockerRemovals.awaitStop(stop);
        }
        removals.stop(podSandboxId, options.sandboxStopGracePeriod(), false);
    }

    void remove(String podSandboxId) {
        DockerCalls.requireId(podSandboxId, "pod sandbox");
        for (ContainerSummary c : containersOf(podSandboxId, false)) {
            removeContainer.accept(c.id());
        }
        removals.remove(podSandboxId, "sandbox");
    }

    List<PodSandbox> list(PodSandboxFilter filter) {
        PodSandboxFilter f = filter == null ? PodSandboxFilter.ALL : filter;
        Map<String, String> labels = new HashMap<>();
        if (f.labelSelector() != null) {
            labels.putAll(f.labelSelector());
        }
        labels.put(DockerLabels.CONTAINER_TYPE, DockerLabels.TYPE_SANDBOX);
        Map<String, List<String>> filters = DockerLabels.filterFor(labels);
        if (f.id() != null) {
            filters.put("id", List.of(f.id()));
        }
        if (f.state() != null) {
            filters.put("status", f.state() == PodSandboxState.SANDBOX_READY ? List.of("running") : NOT_RUNNING);
        }
        List<PodSandbox> result = new ArrayList<>();
        for (ContainerSummary c : DockerCalls.call("list sandboxes", () -> engine.containers().list(true, filters))) {
            DockerStatuses.listedSandbox(c).ifPresentOrElse(result::add,
                    () -> log.debug("Skipping container {}: its name {} is not a sandbox name", c.id(), c.names()));
        }
        return result;
    }

    /** The sandbox's inspection; NotFound when there is none or the container is not a sandbox. */
    ContainerInspect require(String podSandboxId) {
        DockerCalls.requireId(podSandboxId, "pod sandbox");
        ContainerInspect r = DockerCalls.call("inspect pod sandbox " + podSandboxId,
                () -> engine.containers().inspect(podSandboxId));
        if (!DockerStatuses.isSandbox(DockerStatuses.labelsOf(r))) {
            throw new NotFoundException("pod sandbox " + podSandboxId + " not found: it is not a sandbox");
        }
        return r;
    }

    private List<ContainerSummary> containersOf(String sandboxId, boolean runningOnly) {
        Map<String, List<String>> filters = DockerLabels.filterFor(Map.of(
                DockerLabels.CONTAINER_TYPE, DockerLabels.TYPE_CONTAINER, DockerLabels.SANDBOX_ID, sandboxId));
        return DockerCalls.call("list containers of sandbox " + sandboxId,
                () -> engine.containers().list(!runningOnly, filters));
    }

    /** dockershim's ensureSandboxImageExists: pull the pause image only when it is not here. */
    private void ensureSandboxImage(String image) {
        if (images.inspect(image).isPresent()) {
            return;
        }
        log.info("Pulling the sandbox image {}", image);
        try {
            images.pull(image, null);
        } catch (ImagePullException e) {
            throw new DockerCallException("failed pulling the sandbox image " + image + ": " + e.getMessage(), 0, e);
        }
    }
}
