package io.jkubelet.docker;

import io.jkubelet.docker.engine.EngineAnswers;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DockerErrorsAndFactoryTest {

    @Test
    void notFoundBecomesThePortsNotFoundWithDockersMessage() {
        RuntimeException e = DockerErrors.translate("inspect container abc",
                EngineAnswers.error("GET /containers/abc/json", 404, "No such container: abc"));

        assertThat(e).isInstanceOf(io.jkubelet.core.runtime.NotFoundException.class)
                .hasMessage("inspect container abc: No such container: abc");
    }

    @Test
    void otherAnswersNameTheCallTheObjectAndDockersMessage() {
        RuntimeException e = DockerErrors.translate("create container k8s_app_web_ns_uid_0",
                EngineAnswers.error("POST /containers/create", 409,
                        "Conflict. The container name \"/k8s_app_web_ns_uid_0\" is already in use"));

        assertThat(e).isInstanceOf(DockerCallException.class).hasMessage(
                "create container k8s_app_web_ns_uid_0: Conflict. The container name \"/k8s_app_web_ns_uid_0\" is already in use");
        assertThat(((DockerCallException) e).httpStatus()).isEqualTo(409);
    }

    @Test
    void transportFailuresCarryTheirCauses() {
        RuntimeException e = DockerErrors.translate("list containers",
                new UncheckedIOException("Connection refused", new IOException("connect failed")));

        assertThat(e).isInstanceOf(DockerCallException.class)
                .hasMessage("list containers: Connection refused: connect failed");
    }

    @Test
    void endpointsAreCheckedBeforeConnecting() {
        assertThat(DockerRuntimeFactory.normalize("/var/run/docker.sock")).isEqualTo("unix:///var/run/docker.sock");
        assertThat(DockerRuntimeFactory.normalize("tcp://127.0.0.1:2375")).isEqualTo("tcp://127.0.0.1:2375");
        assertThatThrownBy(() -> DockerRuntimeFactory.normalize("http://127.0.0.1:2375"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unsupported scheme");
        assertThatThrownBy(() -> DockerRuntimeFactory.normalize("tcp://127.0.0.1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a host and a port");
        assertThatThrownBy(() -> DockerRuntimeFactory.normalize(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
    }

    @Test
    void aDaemonThatDoesNotAnswerIsReportedWithItsEndpoint() {
        assertThatThrownBy(() -> DockerRuntimeFactory.connect("unix:///tmp/jkubelet-no-such-docker.sock"))
                .isInstanceOf(DockerUnavailableException.class)
                .hasMessageStartingWith("cannot connect to the Docker daemon at unix:///tmp/jkubelet-no-such-docker.sock: ")
                .hasMessageEndingWith("; is dockerd running?");
    }
}
