package io.jkubelet.cri;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jkubelet.core.runtime.ImagePullException;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.PodSandboxFilter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A failed CRI call as the kubelet sees it ({@link CriErrors}): the port's NotFound, an unavailable runtime naming its
 * endpoint, a deadline naming {@code runtimeRequestTimeout}, anything else with the runtime's own words; every message
 * names the call and what it was about.
 */
class CriErrorMappingTest extends FakeCriTestBase {

    @Test
    void anUnknownContainerOrSandboxIsThePortsNotFound() {
        assertThatThrownBy(() -> cri.containerStatus("nope")).isExactlyInstanceOf(NotFoundException.class)
                .hasMessage("ContainerStatus nope: container \"nope\" not found");
        assertThatThrownBy(() -> cri.podSandboxStatus("gone")).isExactlyInstanceOf(NotFoundException.class)
                .hasMessage("PodSandboxStatus gone: sandbox \"gone\" not found");
        assertThatThrownBy(() -> cri.startContainer("nope")).isExactlyInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> cri.stopPodSandbox("gone")).isExactlyInstanceOf(NotFoundException.class);
    }

    @Test
    void removingWhatTheRuntimeNoLongerHasSucceedsButAnyOtherFailureOfARemoveIsAnError() {
        cri.removeContainer("nope");
        cri.removePodSandbox("gone");
        assertThat(fake.recorder.methods()).containsExactly("RemoveContainer", "RemovePodSandbox");

        fake.recorder.inject("RemoveContainer", Status.UNKNOWN.withDescription("failed to delete containerd container"));
        assertThatThrownBy(() -> cri.removeContainer("stuck")).isExactlyInstanceOf(CriCallException.class)
                .hasMessage("RemoveContainer stuck: failed to delete containerd container");
    }

    @Test
    void anUnavailableRuntimeIsNamedByItsEndpoint() {
        fake.recorder.inject("ListPodSandbox", Status.UNAVAILABLE.withDescription("connection refused"));

        assertThatThrownBy(() -> cri.listPodSandbox(PodSandboxFilter.ALL))
                .isExactlyInstanceOf(CriUnavailableException.class)
                .hasMessage("CRI runtime at unix:///run/fake-cri/runtime.sock is unavailable (ListPodSandbox): "
                        + "connection refused")
                .cause().isInstanceOf(StatusRuntimeException.class);
    }

    @Test
    void aDeadlineNamesTheSettingAndTheTimeTheCallHad() {
        String id = createdContainer("app", NGINX);
        fake.recorder.inject("StartContainer", Status.DEADLINE_EXCEEDED);
        fake.recorder.inject("RunPodSandbox", Status.DEADLINE_EXCEEDED);

        assertThatThrownBy(() -> cri.startContainer(id)).isExactlyInstanceOf(CriCallException.class)
                .hasMessage("StartContainer " + id + " got no answer from unix:///run/fake-cri/runtime.sock within "
                        + "120 s (runtimeRequestTimeout)");
        assertThatThrownBy(() -> cri.runPodSandbox(sandboxConfig("slow"))).isExactlyInstanceOf(CriCallException.class)
                .hasMessageStartingWith("RunPodSandbox default/slow got no answer")
                .hasMessageEndingWith("within 240 s (runtimeRequestTimeout)");
    }

    @Test
    void anyOtherRefusalCarriesTheRuntimesWordsOrItsCode() {
        fake.recorder.inject("CreateContainer", Status.UNKNOWN
                .withDescription("failed to create containerd container: get image: not found"));
        fake.recorder.inject("StartContainer", Status.INTERNAL);
        fake.recorder.inject("Version", Status.UNIMPLEMENTED.withDescription("unknown service runtime.v1.RuntimeService"));

        assertThatThrownBy(() -> createdContainer("app", "missing:1")).isExactlyInstanceOf(CriCallException.class)
                .hasMessage("CreateContainer app in sandbox sandbox-1: failed to create containerd container: "
                        + "get image: not found");
        assertThatThrownBy(() -> cri.startContainer("c9")).isExactlyInstanceOf(CriCallException.class)
                .hasMessage("StartContainer c9: INTERNAL");
        assertThatThrownBy(() -> cri.version()).isExactlyInstanceOf(CriCallException.class)
                .hasMessage("Version: unknown service runtime.v1.RuntimeService");
    }

    @Test
    void aFailedPullIsAnImagePullErrorWithTheRuntimesMessage() {
        fake.recorder.inject("PullImage", Status.UNKNOWN.withDescription("failed to pull and unpack image "
                + "\"docker.io/library/nope:1\": 401 Unauthorized"));
        fake.recorder.inject("PullImage", Status.NOT_FOUND.withDescription("docker.io/library/nope:2: not found"));

        assertThatThrownBy(() -> cri.pullImage("docker.io/library/nope:1", null))
                .isExactlyInstanceOf(ImagePullException.class)
                .hasMessage("PullImage docker.io/library/nope:1: failed to pull and unpack image "
                        + "\"docker.io/library/nope:1\": 401 Unauthorized");
        assertThatThrownBy(() -> cri.pullImage("docker.io/library/nope:2", null))
                .isExactlyInstanceOf(ImagePullException.class).hasMessageContaining("not found");
    }

    @Test
    void theImageServicesErrorsNameItsOwnEndpoint() {
        CriEndpoint images = CriEndpoint.parse("unix:///run/fake-cri/images.sock");
        try (CriRuntime split = new CriRuntime(new CriCalls(fake.channel(FakeCriServer.ENDPOINT), fake.channel(images),
                REQUEST_TIMEOUT))) {
            fake.recorder.inject("ListImages", Status.UNAVAILABLE.withDescription("connection refused"));
            fake.recorder.inject("ListPodSandbox", Status.UNAVAILABLE.withDescription("connection refused"));

            assertThatThrownBy(split::listImages).isExactlyInstanceOf(CriUnavailableException.class)
                    .hasMessageStartingWith("CRI runtime at unix:///run/fake-cri/images.sock is unavailable (ListImages)");
            assertThatThrownBy(() -> split.listPodSandbox(null))
                    .hasMessageStartingWith("CRI runtime at unix:///run/fake-cri/runtime.sock is unavailable");
        }
    }
}
