package io.jkubelet.cri;

import io.grpc.Status;
import io.jkubelet.core.runtime.RuntimeVersion;
import io.jkubelet.cri.v1.CriApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Endpoints as the kubelet takes them, and the one clear error when nothing answers on one or the runtime there does
 * not serve CRI v1 (the fake CRI runtime).
 */
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

    @Test
    void aRuntimeThatAnswersVersionIsConnectedAndAskedForTheKubeletsCriVersion() {
        try (FakeCriServer fake = new FakeCriServer();
             CriRuntime runtime = CriRuntimeFactory.validated(calls(fake, FakeCriServer.ENDPOINT))) {
            assertThat(runtime.endpoint()).isEqualTo("unix:///run/fake-cri/runtime.sock");
            assertThat(fake.recorder.request("Version", CriApi.VersionRequest.class).getVersion()).isEqualTo("v1");
            assertThat(fake.recorder.methods()).as("one endpoint: no second check").containsExactly("Version");
            assertThat(runtime.version()).isEqualTo(new RuntimeVersion("fakeRuntime", "1.6.20", "v1"));
        }
    }

    @Test
    void aRuntimeWithoutCriV1StopsTheStartNamingTheEndpointAndItsChannelIsClosed() {
        try (FakeCriServer fake = new FakeCriServer()) {
            fake.recorder.inject("Version", Status.UNIMPLEMENTED.withDescription("unknown service runtime.v1.RuntimeService"));
            CriChannel channel = fake.channel(FakeCriServer.ENDPOINT);

            assertThatThrownBy(() -> CriRuntimeFactory.validated(new CriCalls(channel, channel, Duration.ofSeconds(5))))
                    .isInstanceOf(CriUnavailableException.class)
                    .hasMessage("validate service connection: the CRI runtime at unix:///run/fake-cri/runtime.sock does "
                            + "not answer: Version: unknown service runtime.v1.RuntimeService");
            assertThat(channel.channel().isShutdown()).isTrue();
        }
    }

    @Test
    void anImageServiceOfItsOwnIsCheckedWithAListOfImagesAndNamedWhenItFails() {
        CriEndpoint images = CriEndpoint.parse("unix:///run/fake-cri/images.sock");
        try (FakeCriServer fake = new FakeCriServer()) {
            CriRuntimeFactory.validated(calls(fake, images)).close();
            assertThat(fake.recorder.methods()).containsExactly("Version", "ListImages");

            fake.recorder.inject("ListImages", Status.UNAVAILABLE.withDescription("connection refused"));
            assertThatThrownBy(() -> CriRuntimeFactory.validated(calls(fake, images)))
                    .isInstanceOf(CriUnavailableException.class)
                    .hasMessageStartingWith("validate service connection: the CRI runtime at "
                            + "unix:///run/fake-cri/runtime.sock (images at unix:///run/fake-cri/images.sock) does not "
                            + "answer: CRI runtime at unix:///run/fake-cri/images.sock is unavailable (ListImages)");
        }
    }

    private static CriCalls calls(FakeCriServer fake, CriEndpoint imageEndpoint) {
        CriChannel runtime = fake.channel(FakeCriServer.ENDPOINT);
        CriChannel images = imageEndpoint.equals(FakeCriServer.ENDPOINT) ? runtime : fake.channel(imageEndpoint);
        return new CriCalls(runtime, images, Duration.ofSeconds(5));
    }
}
