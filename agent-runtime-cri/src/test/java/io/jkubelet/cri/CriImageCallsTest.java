package io.jkubelet.cri;

import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.RegistryAuth;
import io.jkubelet.cri.v1.CriApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Images through the fake CRI runtime: lists and statuses as the port's records, the credentials a pull sends, the
 * removal the adapter refuses while a container was made from the image, the image file system, and the sandbox
 * image the runtime pins (its verbose Status).
 */
class CriImageCallsTest extends FakeCriTestBase {

    @Test
    void imagesAreListedWithTheirTagsDigestsSizeAndUser() {
        fake.images.add(CriApi.Image.newBuilder().setId(NGINX_ID).addRepoTags(NGINX)
                .addRepoDigests("docker.io/library/nginx@sha256:0d17b565c37b").setSize(67_000_000)
                .setUid(CriApi.Int64Value.newBuilder().setValue(101)).build());
        fake.images.add(CriApi.Image.newBuilder().setId("sha256:b1").addRepoTags("docker.io/library/app:1")
                .setSize(5_000).setUsername("www-data").build());

        assertThat(cri.listImages()).containsExactly(
                new Image(NGINX_ID, List.of(NGINX), List.of("docker.io/library/nginx@sha256:0d17b565c37b"), 67_000_000,
                        101L, ""),
                new Image("sha256:b1", List.of("docker.io/library/app:1"), List.of(), 5_000, null, "www-data"));
        assertThat(cri.imageStatus("docker.io/library/app:1")).get().extracting(Image::id).isEqualTo("sha256:b1");
        assertThat(fake.recorder.request("ImageStatus", CriApi.ImageStatusRequest.class).getImage().getImage())
                .isEqualTo("docker.io/library/app:1");
        assertThat(cri.imageStatus("docker.io/library/absent:1")).as("the CRI's empty answer").isEmpty();
    }

    @Test
    void aPullSendsTheCredentialsButNoServerAddressAndAnswersTheImageRef() {
        String ref = cri.pullImage("127.0.0.1:5001/team/app:1",
                new RegistryAuth("robot", "s3cret", "127.0.0.1:5001", "id-token"));

        CriApi.PullImageRequest request = fake.recorder.request("PullImage", CriApi.PullImageRequest.class);
        assertThat(request.getImage().getImage()).isEqualTo("127.0.0.1:5001/team/app:1");
        assertThat(request.getAuth()).isEqualTo(CriApi.AuthConfig.newBuilder().setUsername("robot").setPassword("s3cret")
                .setIdentityToken("id-token").build());
        assertThat(ref).isEqualTo(FakeImageService.idOf("127.0.0.1:5001/team/app:1"));

        cri.pullImage(NGINX, null);
        assertThat(fake.recorder.request("PullImage", CriApi.PullImageRequest.class).hasAuth()).isFalse();
        cri.pullImage(NGINX, new RegistryAuth(null, null, null, "only-a-token"));
        assertThat(fake.recorder.request("PullImage", CriApi.PullImageRequest.class).getAuth())
                .isEqualTo(CriApi.AuthConfig.newBuilder().setIdentityToken("only-a-token").build());
    }

    @Test
    void anImageAContainerWasMadeFromIsNotRemovedEvenWhenTheContainerExited() {
        fake.images.add(NGINX_ID, NGINX);
        String id = createdContainer("app", NGINX);
        cri.startContainer(id);
        cri.stopContainer(id, Duration.ofSeconds(1));

        assertThatThrownBy(() -> cri.removeImage(NGINX)).isExactlyInstanceOf(CriCallException.class)
                .hasMessage("RemoveImage " + NGINX + ": image is in use by container " + id);
        assertThat(fake.recorder.methods()).doesNotContain("RemoveImage");

        cri.removeContainer(id);
        cri.removeImage(NGINX);

        assertThat(fake.recorder.request("RemoveImage", CriApi.RemoveImageRequest.class).getImage().getImage())
                .as("removed by id, not by the tag asked").isEqualTo(NGINX_ID);
        assertThat(fake.images.images).isEmpty();
    }

    @Test
    void aContainerThatNamesTheImageByItsDigestAlsoKeepsIt() {
        fake.images.add(CriApi.Image.newBuilder().setId(NGINX_ID).addRepoTags(NGINX)
                .addRepoDigests("docker.io/library/nginx@sha256:0d17b565c37b").build());
        fake.runtime.put("s1", CriApi.ContainerStatus.newBuilder().setId("c1")
                .setImageRef("docker.io/library/nginx@sha256:0d17b565c37b")
                .setState(CriApi.ContainerState.CONTAINER_EXITED).build());

        assertThatThrownBy(() -> cri.removeImage(NGINX_ID)).hasMessageEndingWith("image is in use by container c1");
    }

    @Test
    void removingAnAbsentImageSucceedsWithoutAskingTheRuntimeToRemoveIt() {
        cri.removeImage("docker.io/library/absent:1");

        assertThat(fake.recorder.methods()).containsExactly("ImageStatus");
    }

    @Test
    void theSandboxImageIsPinnedFromTheRuntimesVerboseStatus() {
        fake.runtime.statusInfo.put("config", "{\"sandboxImage\":\"registry.k8s.io/pause:3.9\",\"sandboxImage2\":\"x\","
                + "\"containerd\":{\"snapshotter\":\"overlayfs\"}}");

        assertThat(cri.pinnedImages()).containsExactly("registry.k8s.io/pause:3.9");
        assertThat(fake.recorder.request("Status", CriApi.StatusRequest.class).getVerbose()).isTrue();
    }

    @Test
    void aRuntimeThatDoesNotTellItsSandboxImagePinsNone() {
        assertThat(cri.pinnedImages()).as("no config in the info").isEmpty();

        fake.runtime.statusInfo.put("config", "{\"containerd\":{\"snapshotter\":\"overlayfs\"}}");
        assertThat(cri.pinnedImages()).as("no sandboxImage in the config").isEmpty();
    }

    @Test
    void theImageFileSystemIsTheRuntimesUsageOnTheSizeOfThisMachinesFileSystem(@TempDir Path dir) throws Exception {
        fake.images.filesystems.add(CriApi.FilesystemUsage.newBuilder().setTimestamp(1L)
                .setFsId(CriApi.FilesystemIdentifier.newBuilder().setMountpoint(dir.toString()))
                .setUsedBytes(CriApi.UInt64Value.newBuilder().setValue(123_456_789))
                .setInodesUsed(CriApi.UInt64Value.newBuilder().setValue(4_321)).build());

        FilesystemUsage fs = cri.imageFsInfo();

        assertThat(fs.mountpoint()).isEqualTo(dir.toString());
        assertThat(fs.usedBytes()).isEqualTo(123_456_789);
        assertThat(fs.inodesUsed()).isEqualTo(4_321);
        assertThat(fs.capacityBytes()).isEqualTo(Files.getFileStore(dir).getTotalSpace());
    }

    @Test
    void anImageFileSystemThatIsMissingOrNotOnThisMachineIsAnErrorNamingTheEndpoint() {
        assertThatThrownBy(() -> cri.imageFsInfo()).isExactlyInstanceOf(CriCallException.class)
                .hasMessage("ImageFsInfo: the runtime at unix:///run/fake-cri/runtime.sock reports no image file system");

        fake.images.filesystems.add(CriApi.FilesystemUsage.newBuilder()
                .setFsId(CriApi.FilesystemIdentifier.newBuilder().setMountpoint("/nowhere/containerd/snapshots")).build());
        assertThatThrownBy(() -> cri.imageFsInfo()).isExactlyInstanceOf(CriCallException.class)
                .hasMessageStartingWith("image file system /nowhere/containerd/snapshots of the runtime at "
                        + "unix:///run/fake-cri/runtime.sock is not on this machine");
    }
}
