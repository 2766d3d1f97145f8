package io.jkubelet.cri;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Endpoints as the kubelet takes them, and the one clear error when nothing answers on one. */
class CriRuntimeFactoryTest {

    @Test
    void unixEndpointsAndBarePathsNameTheSocket() {
        assertThat(CriEndpoint.parse("unix:///run/containerd/containerd.sock").socket())
                .isEqualTo(Path.of("/run/containerd/containerd.sock"));
        assertThat(CriEndpoint.parse("/var/run/crio/crio.sock"))
                .isEqualTo(new CriEndpoint("unix:///var/run/crio/crio.sock", Path.of("/var/run/crio/crio.sock")));
    }

    @Test
    void malformedEndpointsAreRefusedByName() {
        assertThatThrownBy(() -> CriEndpoint.parse(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CRI endpoint is empty");
        assertThatThrownBy(() -> CriEndpoint.parse("tcp://127.0.0.1:1234")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"tcp://127.0.0.1:1234\"").hasMessageContaining("only unix sockets");
        assertThatThrownBy(() -> CriEndpoint.parse("unix://relative.sock")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"unix://relative.sock\"");
    }

    @Test
    void anEndpointWhereNothingListensFailsNamingIt(@TempDir Path dir) {
        String endpoint = "unix://" + dir.resolve("nothing.sock");

        assertThatThrownBy(() -> CriRuntimeFactory.connect(endpoint, null, Duration.ofSeconds(5)))
                .isInstanceOf(CriUnavailableException.class)
                .hasMessageStartingWith("validate service connection: the CRI runtime at " + endpoint + " does not answer");
    }
}
