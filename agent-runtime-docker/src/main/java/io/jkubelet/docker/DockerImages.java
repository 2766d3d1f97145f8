package io.jkubelet.docker;

import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.ImagePullException;
import io.jkubelet.core.runtime.LocalFileSystems;
import io.jkubelet.core.runtime.RegistryAuth;
import io.jkubelet.docker.engine.AuthConfig;
import io.jkubelet.docker.engine.DockerEngine;
import io.jkubelet.docker.engine.Durations;
import io.jkubelet.docker.engine.EngineStream;
import io.jkubelet.docker.engine.ImageInspect;
import io.jkubelet.docker.engine.ImageSummary;
import io.jkubelet.docker.engine.ProgressMessage;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The image half of the adapter (dockershim's docker_image.go). Stateless and thread-safe. */
final class DockerImages {
    /** How often a pull's progress is looked at (dockershim reported it every 10 s). */
    private static final Duration PROGRESS_CHECK = Duration.ofSeconds(10);

    private final DockerEngine engine;
    private final Duration progressDeadline;

    /** @param progressDeadline how long a pull may go without progress before it is cancelled */
    DockerImages(DockerEngine engine, Duration progressDeadline) {
        this.engine = engine;
        this.progressDeadline = progressDeadline;
    }

    List<Image> list() {
        List<ImageSummary> images = DockerCalls.call("list images", () -> engine.images().list(false, Map.of()));
        List<Image> result = new ArrayList<>();
        for (ImageSummary i : images) {
            // The list has no user; dockershim left it out too (the status call has it).
            result.add(new Image(i.id(), real(i.repoTags()), real(i.repoDigests()),
                    i.size() == null ? 0 : i.size(), null, ""));
        }
        return result;
    }

    Optional<Image> status(String reference) {
        return inspect(reference).map(DockerImages::toImage);
    }

    Optional<ImageInspect> inspect(String reference) {
        requireReference(reference);
        try {
            return Optional.of(engine.images().inspect(reference));
        } catch (RuntimeException e) {
            if (DockerErrors.isNotFound(e)) {
                return Optional.empty();
            }
            throw DockerErrors.translate("inspect image " + reference, e);
        }
    }

    /**
     * Pulls an image and returns its reference: the repo digest when the registry gave one, else the id
     * (dockershim's {@code getImageRef}).
     */
    String pull(String reference, RegistryAuth auth) {
        requireReference(reference);
        String normalized = withDefaultTag(reference);
        // Without credentials the pull goes without any: the kubelet looks credentials up itself (its keyring,
        // pull secrets), and sends nothing of ~/.docker/config.json.
        AuthConfig credentials = auth == null ? null : new AuthConfig(auth.username(), auth.password(), null,
                auth.serverAddress(), auth.identityToken(), null);
        EngineStream<ProgressMessage> stream;
        try {
            stream = engine.images().pull(normalized, credentials);
        } catch (RuntimeException e) {
            throw new ImagePullException(pullMessage(e), e);
        }
        PullProgress progress = new PullProgress(stream);
        try {
            awaitWithProgress(progress, reference);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stream.close();
            throw new ImagePullException("pull of image " + reference + " was interrupted", e);
        }
        if (progress.failure != null) {
            throw new ImagePullException(pullMessage(progress.failure), progress.failure);
        }
        if (progress.error != null) {
            throw new ImagePullException(progress.error, null);
        }
        ImageInspect image = inspect(normalized).orElseThrow(() -> new ImagePullException(
                "image " + reference + " is not present after Docker reported a successful pull", null));
        return image.repoDigests() != null && !image.repoDigests().isEmpty()
                ? image.repoDigests().getFirst() : image.id();
    }

    /**
     * Waits for a pull as long as it makes progress (dockershim's progress reporter): one that has said nothing new for
     * the progress deadline is cancelled by closing its stream, since a stalled registry connection would otherwise
     * hold the pod's worker (and with serialized pulls every other pull) for ever.
     */
    private void awaitWithProgress(PullProgress progress, String reference) throws InterruptedException {
        long check = Math.min(PROGRESS_CHECK.toMillis(), progressDeadline.toMillis());
        while (!progress.reader.join(Duration.ofMillis(check))) {
            if (System.nanoTime() - progress.lastProgressNanos > progressDeadline.toNanos()) {
                progress.stream.close();
                throw new ImagePullException("cancel pulling image " + reference + " because of no progress for "
                        + Durations.text(progressDeadline) + ", latest progress: \"" + progress.lastProgress + "\"",
                        null);
            }
        }
    }

    /**
     * Removes an image. By id, the image goes with all its tags and digests (dockershim's {@code RemoveImage}, which
     * image GC relies on); by tag or digest, only that reference (and the image, when it was the last one).
     * Idempotent. Fails while a container (of any state, the kubelet's or not) uses the image or another image is
     * built on it, and then the image keeps all its names.
     */
    void remove(String reference) {
        Optional<ImageInspect> found = inspect(reference);
        if (found.isEmpty()) {
            return;
        }
        ImageInspect image = found.get();
        boolean byId = image.id().equals(reference) || image.id().equals("sha256:" + reference);
        if (!byId) {
            removeReference(reference, reference);
            return;
        }
        // One request does it when the image has names in one repository at most; Docker refuses, and changes
        // nothing, when the image is in use, has child images or has names in several repositories.
        try {
            engine.images().remove(image.id(), false, false);
            return;
        } catch (RuntimeException e) {
            if (DockerErrors.isNotFound(e)) {
                return;
            }
            if (!DockerErrors.isConflict(e)) {
                throw DockerErrors.translate("remove image " + reference, e);
            }
        }
        // Names in several repositories are taken off one by one, as dockershim did. Docker would take them off
        // an image it then refuses to delete, so what makes it refuse is checked first.
        refuseWhileNeeded(image.id());
        List<String> references = new ArrayList<>();
        if (image.repoTags() != null) {
            references.addAll(image.repoTags());
        }
        if (image.repoDigests() != null) {
            references.addAll(image.repoDigests());
        }
        references.add(image.id());
        for (String ref : references) {
            removeReference(ref, reference);
        }
    }

    private void removeReference(String ref, String asked) {
        try {
            engine.images().remove(ref, false, false);
        } catch (RuntimeException e) {
            if (!DockerErrors.isNotFound(e)) {
                throw DockerErrors.translate("remove image " + asked, e);
            }
        }
    }

    /** Fails, in Docker's words, when a container was made from the image or an image is built on it. */
    private void refuseWhileNeeded(String id) {
        String shortId = id.substring(id.indexOf(':') + 1, Math.min(id.length(), id.indexOf(':') + 13));
        var users = DockerCalls.call("list containers of image " + id,
                () -> engine.containers().list(true, Map.of("ancestor", List.of(id))));
        if (!users.isEmpty()) {
            throw new DockerCallException("conflict: unable to delete " + shortId
                    + " (must be forced) - image is being used by container " + users.getFirst().id(), 409, null);
        }
        var all = DockerCalls.call("list images", () -> engine.images().list(true, Map.of()));
        if (all.stream().anyMatch(i -> id.equals(i.parentId()))) {
            throw new DockerCallException("conflict: unable to delete " + shortId
                    + " (cannot be forced) - image has dependent child images", 409, null);
        }
    }

    /**
     * The file system holding Docker's data ({@code docker info} DockerRootDir): its size and free space, and
     * its inodes when {@code stat} can tell them.
     */
    FilesystemUsage fsInfo() {
        String root = DockerCalls.call("docker info", () -> engine.info().dockerRootDir());
        if (root == null || root.isEmpty()) {
            throw new DockerCallException("docker info: Docker reports no DockerRootDir", 0, null);
        }
        return fsInfo(root);
    }

    /** As {@link #fsInfo()} for a data root already known (so no {@code docker info}, which is slow on busy engines). */
    FilesystemUsage fsInfo(String root) {
        try {
            return LocalFileSystems.usage(root);
        } catch (IOException e) {
            throw new DockerCallException("image file system " + root + ": " + e.getMessage()
                    + " (is the Docker daemon on another host?)", 0, e);
        }
    }

    /** The image as the port has it: its configured user split as dockershim's {@code getUserFromImageUser}. */
    static Image toImage(ImageInspect i) {
        String user = i.config() == null || i.config().user() == null ? "" : i.config().user();
        return Image.withConfigUser(i.id(), real(i.repoTags()), real(i.repoDigests()),
                i.size() == null ? 0 : i.size(), user);
    }

    /** {@code busybox} means {@code busybox:latest}: Docker would pull every tag of the repository otherwise. */
    static String withDefaultTag(String reference) {
        if (reference.contains("@")) {
            return reference;
        }
        int slash = reference.lastIndexOf('/');
        return reference.indexOf(':', slash + 1) >= 0 ? reference : reference + ":latest";
    }

    private static String pullMessage(Throwable e) {
        return DockerErrors.message(e);
    }

    private static List<String> real(List<String> refs) {
        return refs == null ? List.of()
                : refs.stream().filter(r -> !r.equals("<none>:<none>") && !r.equals("<none>@<none>")).toList();
    }

    private static void requireReference(String reference) {
        if (reference == null || reference.isBlank()) {
            throw new IllegalArgumentException("image reference is empty");
        }
    }

    /**
     * Reads the pull's progress stream on a virtual thread of its own, so the caller can watch the progress and close
     * the stream when it stalls. Docker reports a failed pull as an error message in the stream.
     */
    private static final class PullProgress {
        final EngineStream<ProgressMessage> stream;
        final Thread reader;
        volatile String error;
        /** Why the stream broke (not when it was closed for no progress: the caller says that). */
        volatile RuntimeException failure;
        /** When Docker last said something new about the pull; the pull's start at first. */
        volatile long lastProgressNanos = System.nanoTime();
        volatile String lastProgress = "";

        PullProgress(EngineStream<ProgressMessage> stream) {
            this.stream = stream;
            this.reader = Thread.ofVirtual().name("image-pull").start(this::read);
        }

        private void read() {
            try (stream) {
                for (ProgressMessage m = stream.next(); m != null; m = stream.next()) {
                    String progress = (m.id() == null ? "" : m.id() + ": ") + (m.status() == null ? "" : m.status())
                            + (m.progress() == null ? "" : " " + m.progress());
                    if (!progress.equals(lastProgress)) {
                        lastProgress = progress;
                        lastProgressNanos = System.nanoTime();
                    }
                    if (m.failed() && error == null) {
                        error = m.failure();
                    }
                }
            } catch (RuntimeException e) {
                failure = e;
            }
        }
    }
}
