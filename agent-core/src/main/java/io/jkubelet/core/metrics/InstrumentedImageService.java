package io.jkubelet.core.metrics;

import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RegistryAuth;

import java.util.List;
import java.util.Optional;

/** An {@link ImageService} that counts and times every call as upstream's instrumented image service does. */
public final class InstrumentedImageService implements ImageService {
    private final ImageService delegate;
    private final KubeletMetrics metrics;

    public InstrumentedImageService(ImageService delegate, KubeletMetrics metrics) {
        this.delegate = delegate;
        this.metrics = metrics;
    }

    @Override
    public List<Image> listImages() {
        return InstrumentedRuntimeService.record(metrics, "list_images", delegate::listImages);
    }

    @Override
    public Optional<Image> imageStatus(String image) {
        return InstrumentedRuntimeService.record(metrics, "image_status", () -> delegate.imageStatus(image));
    }

    @Override
    public String pullImage(String image, RegistryAuth auth) {
        return InstrumentedRuntimeService.record(metrics, "pull_image", () -> delegate.pullImage(image, auth));
    }

    @Override
    public void removeImage(String image) {
        InstrumentedRuntimeService.record(metrics, "remove_image", () -> delegate.removeImage(image));
    }

    @Override
    public FilesystemUsage imageFsInfo() {
        return InstrumentedRuntimeService.record(metrics, "image_fs_info", delegate::imageFsInfo);
    }

    /** A CRI runtime answers from its {@code Status}: counted as that call. */
    @Override
    public List<String> pinnedImages() {
        return InstrumentedRuntimeService.record(metrics, "status", delegate::pinnedImages);
    }
}
