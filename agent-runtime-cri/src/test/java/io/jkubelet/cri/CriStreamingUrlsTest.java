package io.jkubelet.cri;

import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.StreamingRuntime;
import io.jkubelet.cri.v1.CriApi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Exec, attach and port-forward through the fake CRI runtime ({@link CriStreaming}): what the runtime is asked for,
 * and its streaming server's URL as the kubelet's server will dial it.
 */
class CriStreamingUrlsTest extends FakeCriTestBase {

    private StreamingRuntime sessions;
    private String container;

    @BeforeEach
    void aRunningContainer() {
        container = createdContainer("app", NGINX);
        cri.startContainer(container);
        sessions = cri.streamingRuntime().orElseThrow();
    }

    @Test
    void anExecAsksForTheCommandAndItsStreamsAndAnswersTheSessionsUrl() {
        URI url = sessions.getExec(container, List.of("sh", "-c", "cat"), true, true, false, true);

        assertThat(fake.recorder.request("Exec", CriApi.ExecRequest.class)).isEqualTo(CriApi.ExecRequest.newBuilder()
                .setContainerId(container).addAllCmd(List.of("sh", "-c", "cat")).setStdin(true).setStdout(true)
                .setStderr(false).setTty(true).build());
        assertThat(url.getScheme()).isEqualTo("http");
        assertThat(url.getHost()).isEqualTo("127.0.0.1");
        assertThat(url.getPort()).isEqualTo(35001);
        assertThat(url.getPath()).startsWith("/exec/" + container + "-");

        sessions.getExec(container, List.of("ls"), false, true, true, false);
        assertThat(fake.recorder.request("Exec", CriApi.ExecRequest.class)).as("kubectl exec without -i or -t")
                .isEqualTo(CriApi.ExecRequest.newBuilder().setContainerId(container).addCmd("ls").setStdout(true)
                        .setStderr(true).build());
    }

    @Test
    void anAttachAndAPortForwardAskForWhatTheClientAsked() {
        URI attach = sessions.getAttach(container, false, true, true, false);
        URI forward = sessions.getPortForward("sandbox-1", List.of(8080, 9090));

        assertThat(fake.recorder.request("Attach", CriApi.AttachRequest.class)).isEqualTo(CriApi.AttachRequest.newBuilder()
                .setContainerId(container).setStdout(true).setStderr(true).build());
        assertThat(fake.recorder.request("PortForward", CriApi.PortForwardRequest.class))
                .isEqualTo(CriApi.PortForwardRequest.newBuilder().setPodSandboxId("sandbox-1")
                        .addAllPort(List.of(8080, 9090)).build());
        assertThat(attach.getPath()).startsWith("/attach/");
        assertThat(forward.getPath()).startsWith("/portforward/sandbox-1-");
    }

    @Test
    void aUrlTheKubeletCannotDialIsAnErrorNamingTheCall() {
        fake.runtime.streamingBase = "unix:///run/streaming.sock";

        assertThatThrownBy(() -> sessions.getExec(container, List.of("sh"), true, true, true, true))
                .isExactlyInstanceOf(CriCallException.class)
                .hasMessageStartingWith("Exec " + container + ": the runtime's streaming URL unix:///run/streaming.sock/exec/")
                .hasMessageContaining("is unusable: not an http(s) URL with a host");
    }

    @Test
    void anUnknownContainerOrSandboxIsNotFound() {
        assertThatThrownBy(() -> sessions.getAttach("nope", false, true, false, false))
                .isExactlyInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> sessions.getPortForward("gone", List.of(80)))
                .isExactlyInstanceOf(NotFoundException.class);
    }
}
