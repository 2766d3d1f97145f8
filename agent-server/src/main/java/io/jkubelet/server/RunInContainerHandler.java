package io.jkubelet.server;

import io.jkubelet.server.http.Handler;
import io.jkubelet.server.http.Request;
import io.jkubelet.server.http.Response;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /run/{podNamespace}/{podID}[/{uid}]/{containerName}?cmd=...}, as upstream's {@code getRun}:
 * the pod must be known (else 404 {@code pod does not exist}); {@code cmd} is split on single spaces (the
 * legacy parameter, unlike exec's repeated {@code command}); the command runs in the container with no
 * timeout and the answer is its stdout followed by its stderr, as {@code application/json} whatever it
 * holds (upstream writes it with {@code writeJSONResponse}), or a bare 200 when there is no output. A
 * container not found or a failed command gets 500 with the error's text. Thread-safe.
 */
final class RunInContainerHandler implements Handler {

    private static final Logger log = LoggerFactory.getLogger(RunInContainerHandler.class);

    private final KubeletView view;

    RunInContainerHandler(KubeletView view) {
        this.view = Objects.requireNonNull(view, "view");
    }

    @Override
    public boolean mayBlock() {
        return true;
    }

    @Override
    public Response handle(Request request) {
        String namespace = request.pathParam("podNamespace");
        String podName = request.pathParam("podID");
        String uid = request.pathParam("uid");
        String containerName = request.pathParam("containerName");
        if (view.podByName(namespace, podName).isEmpty()) {
            return Response.restfulError(404, "pod does not exist");
        }
        String cmd = request.queryParam("cmd");
        List<String> command = Arrays.asList((cmd == null ? "" : cmd).split(" ", -1));
        byte[] output;
        try {
            output = view.runInContainer(namespace, podName, uid, containerName, command);
        } catch (Exception e) {
            log.debug("run {} in {}/{}/{} failed: {}", command, namespace, podName, containerName, e.toString());
            return Response.restfulError(500, e.getMessage() == null ? e.toString() : e.getMessage());
        }
        if (output == null || output.length == 0) {
            return Response.of(200, null, new byte[0]);
        }
        return Response.of(200, Response.APPLICATION_JSON, output);
    }
}
