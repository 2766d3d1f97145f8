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
}
