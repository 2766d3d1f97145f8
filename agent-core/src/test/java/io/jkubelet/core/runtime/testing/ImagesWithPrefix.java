package io.jkubelet.core.runtime.testing;

import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RegistryAuth;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A runtime's images as image GC sees them when it runs on a shared engine in a test or a benchmark: only those
 * with a tag starting with {@code prefix} are listed, so only they can be removed; each removal is recorded in order.
 * Every other call goes to the runtime unchanged.
 */
public final class ImagesWithPrefix implements ImageService {
    private final ImageService delegate;
    private final String prefix;
    /** The images removed, in order. */
    public final List<String> removed = new CopyOnWriteArrayList<>();

    public ImagesWithPrefix(ImageService delegate, String prefix) {
        this.delegate = delegate;
        this.prefix = prefix;
    }

    @Override
    public List<Image> listImages() {
        return delegate.listImages().stream().filter(i -> i.repoTags().stream().anyMatch(t -> t.startsWith(prefix)))
                .toList();
    }

    @Override
    public Optional<Image> imageStatus(String image) {
        return delegate.imageStatus(image);
    }

    @Override
    public String pullImage(String image, RegistryAuth auth) {
        throw new UnsupportedOperationException("image GC never pulls");
    }

    @Override
    public void removeImage(String image) {
        delegate.removeImage(image);
        removed.add(image);
    }

    @Override
    public FilesystemUsage imageFsInfo() {
        return delegate.imageFsInfo();
    }

    @Override
    public List<String> pinnedImages() {
        return delegate.pinnedImages();
    }
}
