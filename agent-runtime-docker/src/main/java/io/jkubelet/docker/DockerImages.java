package io.jkubelet.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectImageResponse;
import com.github.dockerjava.api.model.AuthConfig;
import com.github.dockerjava.api.model.PullResponseItem;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.ImagePullException;
import io.jkubelet.core.runtime.LocalFileSystems;
import io.jkubelet.core.runtime.RegistryAuth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The image half of the adapter (dockershim's docker_image.go). Stateless and thread-safe. */
final class DockerImages {
    private static final Logger log = LoggerFactory.getLogger(DockerImages.class);

    /** How often a pull's progress is looked at (dockershim reported it every 10 s). */
    private static final Duration PROGRESS_CHECK = Duration.ofSeconds(10);

    private final DockerClient requests;
    private final DockerClient streams;
    private final Duration progressDeadline;

    /** @param progressDeadline how long a pull may go without progress before it is cancelled */
    DockerImages(DockerClient requests, DockerClient streams, Duration progressDeadline) {
        this.requests = requests;
        this.streams = streams;
        this.progressDeadline = progressDeadline;
    }

    List<Image> list() {
        List<com.github.dockerjava.api.model.Image> images;
        try {
            images = requests.listImagesCmd().exec();
        } catch (RuntimeException e) {
            throw DockerErrors.translate("list images", e);
        }
        List<Image> result = new ArrayList<>();
        for (com.github.dockerjava.api.model.Image i : images) {
            // The list has no user; dockershim left it out too (the status call has it).
            result.add(new Image(i.getId(), real(i.getRepoTags()), real(i.getRepoDigests()),
                    i.getSize() == null ? 0 : i.getSize(), null, ""));
        }
        return result;
    }

    Optional<Image> status(String reference) {
        return inspect(reference).map(DockerImages::toImage);
    }

    Optional<InspectImageResponse> inspect(String reference) {
        requireReference(reference);
        try {
            return Optional.of(requests.inspectImageCmd(reference).exec());
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
        PullCallback callback = new PullCallback();
        try {
            // Without credentials the pull goes without any: the kubelet looks credentials up itself (its
            // keyring, pull secrets), and docker-java would otherwise add those of ~/.docker/config.json.
            AuthConfig credentials = auth == null ? new AuthConfig() : new AuthConfig()
                    .withUsername(auth.username())
                    .withPassword(auth.password())
                    .withRegistryAddress(auth.serverAddress())
                    .withIdentityToken(auth.identityToken());
            streams.pullImageCmd(normalized).withAuthConfig(credentials).exec(callback);
            awaitWithProgress(callback, reference);
        } catch (ImagePullException stalled) {
            throw stalled;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeQuietly(callback);
            throw new ImagePullException("pull of image " + reference + " was interrupted", e);
        } catch (RuntimeException e) {
            throw new ImagePullException(pullMessage(e), e);
        }
        if (callback.failure != null) {
            throw new ImagePullException(pullMessage(callback.failure), callback.failure);
        }
        if (callback.error != null) {
            throw new ImagePullException(callback.error, null);
        }
        InspectImageResponse image = inspect(normalized).orElseThrow(() -> new ImagePullException(
                "image " + reference + " is not present after Docker reported a successful pull", null));
        return image.getRepoDigests() != null && !image.getRepoDigests().isEmpty()
                ? image.getRepoDigests().getFirst() : image.getId();
    }

    /**
     * Waits for a pull as long as it makes progress (dockershim's progress reporter): one that has said nothing new for
     * the progress deadline is cancelled, since a stalled registry connection would otherwise hold the pod's worker
     * (and with serialized pulls every other pull) for ever.
     */
    private void awaitWithProgress(PullCallback callback, String reference) throws InterruptedException {
        long check = Math.min(PROGRESS_CHECK.toMillis(), progressDeadline.toMillis());
        // Not docker-java's timed awaitCompletion: it closes the stream whenever it returns.
        while (!callback.ended.await(check, TimeUnit.MILLISECONDS)) {
            if (System.nanoTime() - callback.lastProgressNanos > progressDeadline.toNanos()) {
                closeQuietly(callback);
                throw new ImagePullException("cancel pulling image " + reference + " because of no progress for "
                        + RequestTimeouts.text(progressDeadline) + ", latest progress: \"" + callback.lastProgress + "\"",
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
        Optional<InspectImageResponse> found = inspect(reference);
        if (found.isEmpty()) {
            return;
        }
        InspectImageResponse image = found.get();
        boolean byId = image.getId().equals(reference) || image.getId().equals("sha256:" + reference);
        if (!byId) {
            removeReference(reference, reference);
            return;
        }
        // One request does it when the image has names in one repository at most; Docker refuses, and changes
        // nothing, when the image is in use, has child images or has names in several repositories.
        try {
            requests.removeImageCmd(image.getId()).withNoPrune(false).exec();
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
        refuseWhileNeeded(image.getId());
        List<String> references = new ArrayList<>();
        if (image.getRepoTags() != null) {
            references.addAll(image.getRepoTags());
        }
        if (image.getRepoDigests() != null) {
            references.addAll(image.getRepoDigests());
        }
        references.add(image.getId());
        for (String ref : references) {
            removeReference(ref, reference);
        }
    }

    private void removeReference(String ref, String asked) {
        try {
            requests.removeImageCmd(ref).withNoPrune(false).exec();
        } catch (RuntimeException e) {
            if (!DockerErrors.isNotFound(e)) {
                throw DockerErrors.translate("remove image " + asked, e);
            }
        }
    }

    /** Fails, in Docker's words, when a container was made from the image or an image is built on it. */
    private void refuseWhileNeeded(String id) {
        String shortId = id.substring(id.indexOf(':') + 1, Math.min(id.length(), id.indexOf(':') + 13));
        var users = DockerCalls.call("list containers of image " + id, () -> requests.listContainersCmd()
                .withShowAll(true).withAncestorFilter(List.of(id)).withLimit(1).exec());
        if (!users.isEmpty()) {
            throw new DockerCallException("conflict: unable to delete " + shortId
                    + " (must be forced) - image is being used by container " + users.getFirst().getId(), 409, null);
        }
        var all = DockerCalls.call("list images", () -> requests.listImagesCmd().withShowAll(true).exec());
        if (all.stream().anyMatch(i -> id.equals(i.getParentId()))) {
            throw new DockerCallException("conflict: unable to delete " + shortId
                    + " (cannot be forced) - image has dependent child images", 409, null);
        }
    }

    /**
     * The file system holding Docker's data ({@code docker info} DockerRootDir): its size and free space, and
     * its inodes when {@code stat} can tell them.
     */
    FilesystemUsage fsInfo() {
        String root;
        try {
            root = requests.infoCmd().exec().getDockerRootDir();
        } catch (RuntimeException e) {
            throw DockerErrors.translate("docker info", e);
        }
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

    static Image toImage(InspectImageResponse i) {
        String user = i.getConfig() == null || i.getConfig().getUser() == null ? "" : i.getConfig().getUser();
        // "user:group" -> user; a number is a uid, anything else a user name (dockershim's getUserFromImageUser).
        int colon = user.indexOf(':');
        String name = colon >= 0 ? user.substring(0, colon) : user;
        Long uid = null;
        String username = "";
        if (!name.isEmpty()) {
            try {
                uid = Long.parseLong(name);
            } catch (NumberFormatException e) {
                username = name;
            }
        }
        return new Image(i.getId(), real(i.getRepoTags()), real(i.getRepoDigests()),
                i.getSize() == null ? 0 : i.getSize(), uid, username);
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
        String message = DockerErrors.message(e);
        // docker-java's wrapper around Docker's own words.
        return message.startsWith("Could not pull image: ") ? message.substring("Could not pull image: ".length())
                : message;
    }

    private static List<String> real(String[] refs) {
        return refs == null ? List.of() : real(Arrays.asList(refs));
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

    private static void closeQuietly(PullCallback callback) {
        try {
            callback.close();
        } catch (IOException e) {
            log.debug("Closing a pull stream failed", e);
        }
    }

    /** Reads the pull's progress stream; Docker reports a failed pull as an error item in it. */
    private static final class PullCallback extends QuietCallback<PullResponseItem> {
        volatile String error;
        /** When Docker last said something new about the pull; the pull's start at first. */
        volatile long lastProgressNanos = System.nanoTime();
        volatile String lastProgress = "";
        /** Counted down when the stream ends, either way. */
        final CountDownLatch ended = new CountDownLatch(1);

        @Override
        public void onComplete() {
            super.onComplete();
            ended.countDown();
        }

        @Override
        public void onError(Throwable throwable) {
            super.onError(throwable);
            ended.countDown();
        }

        @Override
        public void onNext(PullResponseItem item) {
            String progress = (item.getId() == null ? "" : item.getId() + ": ")
                    + (item.getStatus() == null ? "" : item.getStatus())
                    + (item.getProgress() == null ? "" : " " + item.getProgress());
            if (!progress.equals(lastProgress)) {
                lastProgress = progress;
                lastProgressNanos = System.nanoTime();
            }
            if (item.isErrorIndicated() && error == null) {
                error = item.getErrorDetail() != null && item.getErrorDetail().getMessage() != null
                        ? item.getErrorDetail().getMessage() : item.getError();
            }
        }

    }
}
