package io.jkubelet.cri;

import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.StreamingRuntime;
import io.jkubelet.core.runtime.testing.RuntimePods;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The URLs of exec, attach and port-forward sessions on containerd's streaming server, on the real containerd (the
 * sessions themselves, proxied there by the kubelet's server, are in ContainerdStreamingIT).
 */
class CriStreamingTest extends CriPodsTestBase {

    @Test
    void execAttachAndPortForwardAreSessionsOnTheRuntimesStreamingServer() {
        RuntimePods.Sandbox sandbox = pods.sandbox("urls");
        String id = sandbox.running("app", 0, CriTestSupport.BUSYBOX);
        StreamingRuntime server = runtime.streamingRuntime().orElseThrow();

        URI exec = server.getExec(id, List.of("cat"), true, true, false, false);
        URI attach = server.getAttach(id, false, true, true, false);
        URI forward = server.getPortForward(sandbox.id, List.of(8080));

        assertThat(List.of(exec, attach, forward)).allSatisfy(url -> {
            assertThat(url.getScheme()).isEqualTo("http");
            assertThat(url.getHost()).isNotEmpty();
            assertThat(url.getPort()).isPositive();
        });
        assertThat(exec.getPath()).startsWith("/exec/");
        assertThat(attach.getPath()).startsWith("/attach/");
        assertThat(forward.getPath()).startsWith("/portforward/");
        assertThat(exec.getPath()).as("one-time tokens").isNotEqualTo(server.getExec(id, List.of("cat"), true, true,
                false, false).getPath());
    }

    @Test
    void theKubeletServesNoSessionItselfOnAStreamingServersRuntime() {
        assertThatThrownBy(() -> runtime.exec("any", List.of("true"), null))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("streamingRuntime()");
    }

    @Test
    void anUnknownContainerOrSandboxIsNotFound() {
        StreamingRuntime server = runtime.streamingRuntime().orElseThrow();
        assertThatThrownBy(() -> server.getAttach("0123456789abcdef-unknown", false, true, false, false))
                .isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> server.getPortForward("0123456789abcdef-unknown", List.of(80)))
                .isInstanceOf(NotFoundException.class);
    }
}
