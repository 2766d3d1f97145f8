package io.jkubelet.cri;

import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.ImagePullException;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.LocalFileSystems;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.RegistryAuth;
import io.jkubelet.cri.v1.CriApi;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The CRI {@code ImageService}: list, status, pull (with the registry's credentials), remove, the image fs, and the
 * runtime's own sandbox image.
 */
final class CriImages implements ImageService {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final CriCalls calls;

    CriImages(CriCalls calls) {
        this.calls = calls;
    }

    @Override
    public List<Image> listImages() {
        return calls.image("ListImages", null, s -> s.listImages(CriApi.ListImagesRequest.getDefaultInstance()))
                .getImagesList().stream().map(CriToRuntime::image).toList();
    }

    @Override
    public Optional<Image> imageStatus(String image) {
        CriApi.ImageStatusResponse response = calls.image("ImageStatus", image,
                s -> s.imageStatus(CriApi.ImageStatusRequest.newBuilder().setImage(spec(image)).build()));
        return response.hasImage() ? Optional.of(CriToRuntime.image(response.getImage())) : Optional.empty();
    }

    /** No deadline, as upstream: the runtime paces a pull (containerd's {@code image_pull_progress_timeout}). */
    @Override
    public String pullImage(String image, RegistryAuth auth) {
        CriApi.PullImageRequest.Builder request = CriApi.PullImageRequest.newBuilder().setImage(spec(image));
        if (auth != null) {
            CriApi.AuthConfig.Builder a = CriApi.AuthConfig.newBuilder();
            if (auth.username() != null) {
                a.setUsername(auth.username());
            }
            if (auth.password() != null) {
                a.setPassword(auth.password());
            }
            // No server address, as upstream's keyring leaves it out: the runtime takes the registry from the image's
            // name. The keyring's key ("127.0.0.1:5001") is no URL, and containerd 1.6 refuses the pull over it
            // ("parse server address: ... first path segment in URL cannot contain colon").
            if (auth.identityToken() != null) {
                a.setIdentityToken(auth.identityToken());
            }
            request.setAuth(a);
        }
        try {
            return calls.image("PullImage", image, null, s -> s.pullImage(request.build())).getImageRef();
        } catch (CriCallException | NotFoundException e) {
            throw new ImagePullException(e.getMessage(), e);
        }
    }

    /**
     * Removes the image by id, after checking that no container (of any pod, in any state) was made from it: the
     * port's contract, which Docker keeps itself and containerd does not (it would leave the containers without
     * their image). An absent image is no error.
     */
    @Override
    public void removeImage(String image) {
        Optional<Image> found = imageStatus(image);
        if (found.isEmpty()) {
            return;
        }
        Image target = found.get();
        List<CriApi.Container> users = calls.runtime("ListContainers", null,
                        s -> s.listContainers(CriApi.ListContainersRequest.getDefaultInstance())).getContainersList()
                .stream().filter(c -> c.getImageRef().equals(target.id()) || target.repoDigests().contains(c.getImageRef()))
                .toList();
        if (!users.isEmpty()) {
            throw new CriCallException("RemoveImage " + image + ": image is in use by container "
                    + users.getFirst().getId(), null);
        }
        calls.image("RemoveImage", image, s -> s.removeImage(CriApi.RemoveImageRequest.newBuilder()
                .setImage(spec(target.id())).build()));
    }

    /**
     * The runtime's image file system as upstream's CRI stats provider reports it: where it is and what the runtime's
     * images and containers' layers use of it (bytes and inodes) from the runtime; its size, free space and inodes from
     * this machine, as upstream's kubelet takes them from cAdvisor (image GC compares what the file system has left).
     * The file system's own used space would count whatever else lives on it as the runtime's.
     */
    @Override
    public FilesystemUsage imageFsInfo() {
        CriApi.ImageFsInfoResponse response = calls.image("ImageFsInfo", null,
                s -> s.imageFsInfo(CriApi.ImageFsInfoRequest.getDefaultInstance()));
        if (response.getImageFilesystemsCount() == 0) {
            throw new CriCallException("ImageFsInfo: the runtime at " + calls.imageEndpoint()
                    + " reports no image file system", null);
        }
        CriApi.FilesystemUsage fs = response.getImageFilesystems(0);
        String mountpoint = fs.getFsId().getMountpoint();
        FilesystemUsage local;
        try {
            local = LocalFileSystems.usage(mountpoint);
        } catch (IOException e) {
            throw new CriCallException("image file system " + mountpoint + " of the runtime at " + calls.imageEndpoint()
                    + " is not on this machine: " + e.getMessage(), e);
        }
        return new FilesystemUsage(mountpoint, local.capacityBytes(), local.availableBytes(),
                fs.hasUsedBytes() ? fs.getUsedBytes().getValue() : -1, local.inodes(), local.inodesFree(),
                fs.hasInodesUsed() ? fs.getInodesUsed().getValue() : -1);
    }

    /**
     * The runtime's own sandbox image, from its verbose {@code Status} (containerd's {@code config.sandboxImage}, its
     * {@code sandbox_image}): every sandbox runs it, and a runtime of the CRI of 1.20 cannot mark it pinned. None when
     * the runtime does not tell.
     */
    @Override
    public List<String> pinnedImages() {
        String config = calls.runtime("Status", null, s -> s.status(CriApi.StatusRequest.newBuilder().setVerbose(true)
                .build())).getInfoMap().get("config");
        if (config == null) {
            return List.of();
        }
        String sandboxImage = JSON.readTree(config).path("sandboxImage").asText("");
        return sandboxImage.isEmpty() ? List.of() : List.of(sandboxImage);
    }

    private static CriApi.ImageSpec spec(String image) {
        return CriApi.ImageSpec.newBuilder().setImage(image).build();
    }
}
