package io.jkubelet.server.logs;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.server.KubeletView;
import io.jkubelet.server.http.Handler;
import io.jkubelet.server.http.Request;
import io.jkubelet.server.http.Response;
import io.jkubelet.server.http.ResponseStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /containerLogs/{podNamespace}/{podID}/{containerName}}, as upstream's {@code getContainerLogs}
 * and {@code GetKubeletContainerLogs}:
 *
 * <ol>
 *   <li>the query decodes as {@code v1.PodLogOptions} (legacy {@code tail}, {@code tail=all}), else 400
 *       {@code {"message": "Unable to decode query."}}; it validates, else 422 {@code {"message": "Invalid
 *       request."}};
 *   <li>the pod must exist (404 {@code pod "web" does not exist}) and have the container in its spec (404
 *       {@code container "app" not found in pod "web"}); a {@code stream} other than {@code All} gets 400,
 *       as on a kubelet without the PodLogsQuerySplitStreams gate (alpha, off by default);
 *   <li>the instance to read comes from the pod status ({@link ContainerLogStatus}); none gets 400 with the
 *       reason, sent chunked as upstream (it set {@code Transfer-Encoding} first);
 *   <li>then 200, chunked, no Content-Type (Go does not sniff once a handler set Transfer-Encoding), and the
 *       log streams ({@link ContainerLogReader}). An error after that point is written into the body, as
 *       upstream's late {@code WriteError} does.
 * </ol>
 *
 * Thread-safe.
 */
public final class ContainerLogsHandler implements Handler {

    private static final Logger log = LoggerFactory.getLogger(ContainerLogsHandler.class);

    private final KubeletView view;
    private final Clock clock;
    private final ContainerLogReader reader;

    public ContainerLogsHandler(KubeletView view, Clock clock, ContainerLogReader reader) {
        this.view = Objects.requireNonNull(view, "view");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.reader = Objects.requireNonNull(reader, "reader");
    }

    @Override
    public boolean mayBlock() {
        return true;
    }

    @Override
    public Response handle(Request request) {
        String namespace = nonNull(request.pathParam("podNamespace"));
        String podName = nonNull(request.pathParam("podID"));
        String containerName = nonNull(request.pathParam("containerName"));
        if (podName.isEmpty()) {
            return Response.restfulError(400, "{\"message\": \"Missing podID.\"}");
        }
        if (containerName.isEmpty()) {
            return Response.restfulError(400, "{\"message\": \"Missing container name.\"}");
        }
        if (namespace.isEmpty()) {
            return Response.restfulError(400, "{\"message\": \"Missing podNamespace.\"}");
        }
        PodLogOptions options;
        try {
            options = PodLogOptions.decode(request.query());
        } catch (PodLogOptions.DecodeException e) {
            log.debug("containerLogs {}/{}/{}: {}", namespace, podName, containerName, e.getMessage());
            return Response.restfulError(400, "{\"message\": \"Unable to decode query.\"}");
        }
        if (!options.validate().isEmpty()) {
            log.debug("containerLogs {}/{}/{}: invalid options {}", namespace, podName, containerName, options.validate());
            return Response.restfulError(422, "{\"message\": \"Invalid request.\"}");
        }
        Optional<Pod> found = view.podByName(namespace, podName);
        if (found.isEmpty()) {
            return Response.restfulError(404, "pod " + ContainerLogStatus.quote(podName) + " does not exist");
        }
        Pod pod = found.get();
        if (!ContainerLogStatus.hasContainerSpec(pod, containerName)) {
            return Response.restfulError(404, "container " + ContainerLogStatus.quote(containerName) + " not found in pod "
                    + ContainerLogStatus.quote(podName));
        }
        if (options.stream() != null && !options.stream().equals(PodLogOptions.STREAM_ALL)) {
            return Response.restfulError(400, "unable to return the given log stream: " + ContainerLogStatus.quote(options.stream())
                    + ". Please enable PodLogsQuerySplitStreams feature gate in kubelet");
        }
        String containerId;
        try {
            containerId = ContainerLogStatus.containerId(pod, containerName, options.previous());
        } catch (ContainerLogStatus.UnavailableException e) {
            return Response.streaming(400, null, out -> out.write(e.getMessage().getBytes(StandardCharsets.UTF_8)));
        }
        ContainerLogReader.Options readOptions = ContainerLogReader.Options.of(options, clock.instant());
        return Response.streaming(200, null, out -> stream(containerId, readOptions, out));
    }

    private void stream(String containerId, ContainerLogReader.Options options, ResponseStream out) throws Exception {
        String runtimeId = runtimeId(containerId);
        KubeletView.ContainerLog container;
        try {
            container = view.containerLog(runtimeId);
        } catch (Exception e) {
            log.debug("Failed to get container status of {}: {}", containerId, e.toString());
            writeError(out, "unable to retrieve container logs for " + containerId);
            return;
        }
        if (container.logPath() == null || container.logPath().isEmpty()) {
            writeError(out, "failed to try resolving symlinks in path \"\": no such file or directory");
            return;
        }
        try {
            reader.read(Path.of(container.logPath()), options, () -> view.containerLog(runtimeId).running(), out);
        } catch (ContainerLogReader.ReadException e) {
            writeError(out, e.getMessage());
        }
    }

    /** After the 200 is out an error can only go into the body, as Go's late {@code WriteError}. */
    private static void writeError(ResponseStream out, String message) throws IOException {
        out.write(message.getBytes(StandardCharsets.UTF_8));
    }

    private static String runtimeId(String containerId) {
        int scheme = containerId.indexOf("://");
        return scheme < 0 ? containerId : containerId.substring(scheme + 3);
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
