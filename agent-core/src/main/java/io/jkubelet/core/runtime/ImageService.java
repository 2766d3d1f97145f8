package io.jkubelet.core.runtime;

import java.util.List;
import java.util.Optional;

/**
 * Images on a container runtime, shaped after the CRI {@code ImageService}. Thread-safe; blocking.
 */
public interface ImageService {

    List<Image> listImages();

    /** The image a reference names, if present locally. */
    Optional<Image> imageStatus(String image);

    /**
     * Pulls an image.
     *
     * @param auth credentials for the registry, or {@code null}
     * @return the image reference (id or digest) of the pulled image
     * @throws ImagePullException when the pull fails, with the registry's message
     */
    String pullImage(String image, RegistryAuth auth);

    void removeImage(String image);

    /** The file system holding images: capacity and usage, for stats and image GC. */
    FilesystemUsage imageFsInfo();

    /**
     * The images the runtime keeps for itself, which image GC never removes (upstream's {@code Image.pinned}, which
     * the CRI of Kubernetes 1.20 does not carry): a CRI runtime's own sandbox image, the image of every sandbox it
     * runs. A decorator must pass this on. None by default (Docker: the kubelet names the sandbox image itself).
     */
    default List<String> pinnedImages() {
        return List.of();
    }
}
