package io.jkubelet.server;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.server.http.Handler;
import io.jkubelet.server.http.Request;
import io.jkubelet.server.http.Response;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code POST /checkpoint/{podNamespace}/{podID}/{containerName}} (upstream's {@code checkpoint}, served while the
 * {@code ContainerCheckpoint} gate is on, with the debugging handlers): an unknown pod is 404 {@code pod does not
 * exist}, an unknown container 404 {@code container c does not exist}, a {@code timeout} that is not a number 404
 * {@code cannot parse value of timeout parameter}; otherwise the runtime is asked, and the Docker runtime cannot
 * checkpoint a container (as containerd without CRIU support), so the answer is upstream's 500 for a runtime that
 * fails: {@code checkpointing of ns/pod/c failed (...)}. Thread-safe.
 */
final class CheckpointHandler implements Handler {
    static final String ROUTE = "/checkpoint/{podNamespace}/{podID}/{containerName}";
    static final String NOT_IMPLEMENTED = "method CheckpointContainer not implemented by the Docker runtime";

    private final KubeletView view;

    CheckpointHandler(KubeletView view) {
        this.view = Objects.requireNonNull(view, "view");
    }

    @Override
    public Response handle(Request request) {
        String namespace = request.pathParam("podNamespace");
        String podName = request.pathParam("podID");
        String containerName = request.pathParam("containerName");
        Optional<Pod> pod = view.podByName(namespace, podName);
        if (pod.isEmpty()) {
            return Response.restfulError(404, "pod does not exist");
        }
        List<Container> containers = pod.get().getSpec() == null || pod.get().getSpec().getContainers() == null
                ? List.of() : pod.get().getSpec().getContainers();
        if (containers.stream().noneMatch(c -> containerName.equals(c.getName()))) {
            return Response.restfulError(404, "container " + containerName + " does not exist");
        }
        List<String> timeouts = request.queryParams("timeout");
        if (!timeouts.isEmpty()) {
            try {
                Long.parseLong(timeouts.get(timeouts.size() - 1));
            } catch (NumberFormatException e) {
                return Response.restfulError(404, "cannot parse value of timeout parameter");
            }
        }
        return Response.restfulError(500, "checkpointing of " + namespace + "/" + podName + "/" + containerName
                + " failed (" + NOT_IMPLEMENTED + ")");
    }
}
