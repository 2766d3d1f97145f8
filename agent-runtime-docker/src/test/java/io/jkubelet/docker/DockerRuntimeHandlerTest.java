package io.jkubelet.docker;

import io.jkubelet.core.runtime.NamespaceOptions;
import io.jkubelet.core.runtime.PodSandboxConfig;
import io.jkubelet.core.runtime.PodSandboxMetadata;
import io.jkubelet.docker.engine.ScriptedDaemon;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * dockershim's rule for a RuntimeClass's handler on Docker: the default and {@code docker} make the sandbox container,
 * any other handler fails with dockershim's {@code RuntimeHandler "x" not supported} before a container is made. Against
 * a scripted daemon that has the pause image and refuses every container creation, so that reaching it shows.
 */
class DockerRuntimeHandlerTest {
    private static final PodSandboxConfig SANDBOX = new PodSandboxConfig(new PodSandboxMetadata("web", "uid-1", "shop", 0),
            "web", null, null, List.of(), Map.of(), Map.of(), "", NamespaceOptions.POD_DEFAULT, 0, "jkubelet/pause:3.9",
            false, Map.of());

    /** Runs the sandbox with {@code handler} on a daemon of its own; the daemon's request lines. */
    private static List<String> runSandbox(String handler, String expectedMessage) throws Exception {
        try (ScriptedDaemon daemon = ScriptedDaemon.unix(DockerRuntimeHandlerTest::answer, true);
             DockerRuntime runtime = DockerRuntimeFactory.connect(daemon.endpoint())) {
            assertThatThrownBy(() -> runtime.runPodSandbox(SANDBOX, handler)).hasMessageContaining(expectedMessage);
            return List.copyOf(daemon.requestLines());
        }
    }

    private static String answer(String request) {
        if (request.startsWith("GET /_ping")) {
            return ScriptedDaemon.PING;
        }
        if (request.startsWith("GET /v1.41/images/")) {
            return json("200 OK", "{\"Id\":\"sha256:5f1e\",\"RepoTags\":[\"jkubelet/pause:3.9\"]}");
        }
        if (request.startsWith("POST /v1.41/containers/create")) {
            // The last request of each call: its body stays unread on this connection.
            return json("500 Internal Server Error", "{\"message\":\"the test daemon makes no container\"}");
        }
        return json("404 Not Found", "{\"message\":\"not scripted\"}");
    }

    private static String json(String status, String body) {
        return "HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
                + "\r\n\r\n" + body;
    }

    @Test
    void anyOtherHandlerIsNotSupportedAndNoContainerIsMade() throws Exception {
        List<String> requests = runSandbox("runsc", "RuntimeHandler \"runsc\" not supported");

        assertThat(requests).noneMatch(r -> r.contains("/containers/create"));
    }

    @Test
    void theDefaultAndDockerMakeTheSandboxContainer() throws Exception {
        for (String handler : List.of("", DockerRuntime.RUNTIME_NAME)) {
            List<String> requests = runSandbox(handler, "the test daemon makes no container");

            assertThat(requests).as("handler \"" + handler + "\"").anyMatch(r -> r.startsWith("POST /v1.41/containers/create"));
        }
    }
}
