package io.jkubelet.core.images;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.config.validation.ImageReference;
import io.jkubelet.core.credentialprovider.PodKeyring;
import io.jkubelet.core.credentialprovider.PullCredentials;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.runtime.Image;
import io.jkubelet.core.runtime.ImagePullException;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.NotFoundException;
import io.jkubelet.core.runtime.RegistryAuth;
import io.jkubelet.core.util.Backoff;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Makes sure a container's image is present, by its pull policy (upstream {@code images.imageManager}):
 * {@code Never} fails with {@code ErrImageNeverPull} when absent, {@code IfNotPresent} pulls when absent,
 * {@code Always} pulls every time. Failed pulls back off per image (10 s doubling to 300 s), during which
 * the container waits with {@code ImagePullBackOff}. When a pull may run is the {@link ImagePuller}'s to say
 * ({@code serializeImagePulls}, {@code maxParallelImagePulls}, {@code registryPullQPS}/{@code registryBurst}).
 */
public final class ImageManager {
    public static final String ERR_IMAGE_PULL = "ErrImagePull";
    public static final String IMAGE_PULL_BACK_OFF = "ImagePullBackOff";
    public static final String ERR_IMAGE_NEVER_PULL = "ErrImageNeverPull";
    public static final String INVALID_IMAGE_NAME = "InvalidImageName";

    /** Why a container's image is not there: a kubelet waiting reason and its message. */
    public static final class ImageException extends Exception {
        private final String reason;

        public ImageException(String reason, String message) {
            super(message);
            this.reason = reason;
        }

        public String reason() {
            return reason;
        }
    }

    private final ImageService images;
    private final EventRecorder recorder;
    private final Clock clock;
    private final Backoff backoff;
    private final ImagePuller puller;
    private final PodKeyring keyring;

    /** Serialized pulls, not throttled, without credentials. */
    public ImageManager(ImageService images, EventRecorder recorder, Clock clock, boolean serializeImagePulls) {
        this(images, recorder, clock, new ImagePullLimits(serializeImagePulls, null, 0, 0), PodKeyring.NONE);
    }

    /**
     * @param keyring the credentials for a pod's pulls (its {@code imagePullSecrets}, then the node's own and its
     *     credential provider plugins'), asked only when a pull is needed
     */
    public ImageManager(ImageService images, EventRecorder recorder, Clock clock, ImagePullLimits limits,
                        PodKeyring keyring) {
        this.keyring = keyring;
        this.images = images;
        this.recorder = recorder;
        this.clock = clock;
        this.backoff = new Backoff(clock, Duration.ofSeconds(10), Duration.ofSeconds(300));
        this.puller = new ImagePuller(limits, clock);
    }

    /**
     * The runtime's status of an image, as a container's spec names it (what upstream's runtime manager asks its
     * image service for the image's user): empty when the runtime does not have it.
     */
    public Optional<Image> imageStatus(String image) {
        return images.imageStatus(image);
    }

    /**
     * Ensures the image of {@code container} is present.
     *
     * @return the image reference (id) to run
     * @throws ImageException with the kubelet's reason when it is not and cannot be pulled now
     */
    public String ensureImageExists(Pod pod, Container container, RegistryAuth auth) throws ImageException {
        String image = container.getImage();
        if (image == null || image.isBlank()) {
            throw new ImageException(INVALID_IMAGE_NAME, "Failed to apply default image tag \"\": couldn't parse image name \"\": invalid reference format");
        }
        var ref = References.container(pod, container);
        String policy = container.getImagePullPolicy() == null || container.getImagePullPolicy().isEmpty()
                ? defaultPullPolicy(image) : container.getImagePullPolicy();
        Optional<Image> present = images.imageStatus(image);
        if (!"Always".equals(policy) && present.isPresent()) {
            recorder.event(ref, EventRecorder.NORMAL, "Pulled",
                    "Container image \"" + image + "\" already present on machine");
            return present.get().id();
        }
        if ("Never".equals(policy)) {
            String msg = "Container image \"" + image + "\" is not present with pull policy of Never";
            recorder.event(ref, EventRecorder.WARNING, ERR_IMAGE_NEVER_PULL, msg);
            throw new ImageException(ERR_IMAGE_NEVER_PULL, msg);
        }
        String key = image;
        if (backoff.isInBackOffSince(key, clock.instant())) {
            String msg = "Back-off pulling image \"" + image + "\"";
            recorder.event(ref, EventRecorder.NORMAL, "BackOff", msg);
            throw new ImageException(IMAGE_PULL_BACK_OFF, msg);
        }
        recorder.event(ref, EventRecorder.NORMAL, "Pulling", "Pulling image \"" + image + "\"");
        long start = System.nanoTime();
        List<String> providerFailures = new ArrayList<>();
        try {
            String imageRef = puller.pull(image, () -> pull(pod, image, auth, providerFailures));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            recorder.event(ref, EventRecorder.NORMAL, "Pulled", "Successfully pulled image \"" + image + "\" in "
                    + formatSeconds(took));
            backoff.reset(key);
            return imageRef;
        } catch (ImagePullException | NotFoundException e) {
            backoff.next(key, clock.instant());
            // A credential provider that failed is named: its credentials may be what the registry missed.
            String msg = "Failed to pull image \"" + image + "\": " + e.getMessage()
                    + providerFailures.stream().map(f -> "; " + f).collect(Collectors.joining());
            recorder.event(ref, EventRecorder.WARNING, "Failed", msg);
            recorder.event(ref, EventRecorder.WARNING, "Failed", "Error: " + ERR_IMAGE_PULL);
            throw new ImageException(ERR_IMAGE_PULL, msg);
        }
    }

    /**
     * Pulls with the given credentials, else with each matching credential of the pod's keyring in turn until one
     * works (upstream {@code PullImage}), else without credentials.
     *
     * @param providerFailures gets what kept credential providers from giving credentials
     */
    private String pull(Pod pod, String image, RegistryAuth auth, List<String> providerFailures) {
        if (auth != null) {
            return images.pullImage(image, auth);
        }
        PullCredentials found = keyring.lookup(pod, image);
        providerFailures.addAll(found.providerFailures());
        List<RegistryAuth> creds = found.auths();
        if (creds.isEmpty()) {
            return images.pullImage(image, null);
        }
        List<RuntimeException> errors = new ArrayList<>();
        for (RegistryAuth c : creds) {
            try {
                return images.pullImage(image, c);
            } catch (ImagePullException | NotFoundException e) {
                errors.add(e);
            }
        }
        if (errors.size() == 1) {
            throw errors.get(0);
        }
        // Upstream's aggregate of every credential's failure: "[err1, err2]".
        throw new ImagePullException("[" + String.join(", ", errors.stream().map(Throwable::getMessage).toList()) + "]",
                errors.get(0));
    }

    /** The policy the API defaults an unset one to: {@code Always} for {@code :latest} (or no tag), else IfNotPresent. */
    static String defaultPullPolicy(String image) {
        return "latest".equals(ImageReference.effectiveTag(image)) ? "Always" : "IfNotPresent";
    }

    private static String formatSeconds(Duration d) {
        return String.format(Locale.ROOT, "%.3fs", d.toNanos() / 1e9);
    }
}
