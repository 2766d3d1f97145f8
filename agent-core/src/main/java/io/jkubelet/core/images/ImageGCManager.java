package io.jkubelet.core.images;

import io.jkubelet.core.apis.config.GoDuration;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.images.ImageRecords.ImageRecord;
import io.jkubelet.core.runtime.Container;
import io.jkubelet.core.runtime.ContainerFilter;
import io.jkubelet.core.runtime.FilesystemUsage;
import io.jkubelet.core.runtime.ImageService;
import io.jkubelet.core.runtime.RuntimeService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Removes unused images (upstream {@code realImageGCManager}): when the image file system is at or above the high
 * threshold, the least recently used ones until it is down to the low threshold, and, with a maximum age, those
 * unused for longer. An image some container uses (whatever its state, on whichever node of the runtime), the
 * sandbox image (the kubelet's and the runtime's own, {@link ImageService#pinnedImages}), and an image first seen
 * less than the minimum age ago are never removed. Thread-safe; passes
 * run one at a time.
 */
public final class ImageGCManager {
    private static final Logger log = LoggerFactory.getLogger(ImageGCManager.class);

    /** How often image GC runs (upstream {@code ImageGCPeriod}). */
    public static final Duration PERIOD = Duration.ofMinutes(5);
    public static final String FREE_DISK_SPACE_FAILED = "FreeDiskSpaceFailed";
    public static final String INVALID_DISK_CAPACITY = "InvalidDiskCapacity";
    /** Why an image went, as the {@code kubelet_image_garbage_collected_total} metric labels it. */
    public static final String REASON_SPACE = "space";
    public static final String REASON_AGE = "age";

    /** Told of every image removed, with {@link #REASON_SPACE} or {@link #REASON_AGE}. */
    @FunctionalInterface
    public interface Observer {
        Observer NOOP = reason -> {};

        void imageCollected(String reason);
    }

    /** A pass could not do what the policy asks; the message says why, as upstream's error does. */
    public static final class ImageGCException extends Exception {
        public ImageGCException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final ImageService images;
    private final RuntimeService runtime;
    private final String sandboxImage;
    private final ImageGCPolicy policy;
    private final EventRecorder recorder;
    private final String nodeName;
    private final Clock clock;
    private final Observer observer;
    private final ImageRecords records = new ImageRecords();

    /**
     * @param runtime where the containers that use images are listed
     * @param sandboxImage the pause image, kept as if a container used it
     */
    public ImageGCManager(ImageService images, RuntimeService runtime, String sandboxImage, ImageGCPolicy policy,
                          EventRecorder recorder, String nodeName, Clock clock, Observer observer) {
        this.images = images;
        this.runtime = runtime;
        this.sandboxImage = sandboxImage;
        this.policy = policy;
        this.recorder = recorder;
        this.nodeName = nodeName;
        this.clock = clock;
        this.observer = observer;
    }

    public ImageGCPolicy policy() {
        return policy;
    }

    /**
     * One pass (upstream {@code GarbageCollect}): images past the maximum age, then, when usage is at or above the
     * high threshold, unused images least recently used first until the low threshold is reached.
     *
     * @param beganGC when periodic image GC started: images are not aged out before the maximum age has passed
     *     since then, as the kubelet has not watched them for that long
     * @throws ImageGCException when an image could not be removed or the low threshold cannot be reached (then
     *     with a {@code FreeDiskSpaceFailed} event on the node)
     */
    public synchronized void garbageCollect(Instant beganGC) throws ImageGCException {
        Instant freeTime = clock.instant();
        Set<String> inUse = detectImages(freeTime);
        List<ImageRecord> candidates = freeOldImages(records.evictionOrder(inUse), freeTime, beganGC);

        FilesystemUsage fs = images.imageFsInfo();
        long capacity = fs.capacityBytes();
        long available = Math.min(fs.availableBytes(), capacity);
        if (capacity <= 0) {
            String msg = "invalid capacity " + Math.max(capacity, 0) + " on image filesystem";
            recorder.event(References.node(nodeName), EventRecorder.WARNING, INVALID_DISK_CAPACITY, msg);
            throw new ImageGCException(msg, null);
        }
        int usagePercent = 100 - (int) (available * 100 / capacity);
        if (usagePercent < policy.highThresholdPercent()) {
            return;
        }
        long amountToFree = bytesToFree(capacity, available, policy.lowThresholdPercent());
        log.info("Disk usage on image filesystem {} is {}%, at or over the high threshold {}%: trying to free {} bytes"
                        + " down to the low threshold {}%", fs.mountpoint(), usagePercent, policy.highThresholdPercent(),
                amountToFree, policy.lowThresholdPercent());
        long freed = freeSpace(amountToFree, freeTime, candidates);
        if (freed < amountToFree) {
            String msg = "Failed to garbage collect required amount of images. Attempted to free " + amountToFree
                    + " bytes, but only found " + freed + " bytes eligible to free.";
            recorder.event(References.node(nodeName), EventRecorder.WARNING, FREE_DISK_SPACE_FAILED, msg);
            throw new ImageGCException(msg, null);
        }
    }

    /**
     * Removes every unused image old enough, whatever the usage (upstream {@code DeleteUnusedImages}): what the
     * node frees first when it is short of disk.
     *
     * @return the bytes freed
     */
    public synchronized long deleteUnusedImages() throws ImageGCException {
        log.info("Attempting to delete unused images");
        Instant freeTime = clock.instant();
        Set<String> inUse = detectImages(freeTime);
        return freeSpace(Long.MAX_VALUE, freeTime, records.evictionOrder(inUse));
    }

    /**
     * The bytes to free to come down to {@code lowThresholdPercent}: what the low threshold leaves available, less
     * what is available now.
     */
    static long bytesToFree(long capacity, long available, int lowThresholdPercent) {
        return capacity * (100 - lowThresholdPercent) / 100 - available;
    }

    /** Updates the records from the runtime and returns the ids of the images in use (the sandbox image among them). */
    private Set<String> detectImages(Instant now) {
        Set<String> inUse = new HashSet<>();
        // Every container the kubelets of this runtime made, of any node and in any state: an image a stopped
        // container was made from cannot go either.
        for (Container c : runtime.listContainers(ContainerFilter.ALL)) {
            inUse.add(c.imageRef());
        }
        images.imageStatus(sandboxImage).ifPresent(i -> inUse.add(i.id()));
        // The runtime's own sandbox image, when it is not the one the kubelet was told of: every sandbox runs it.
        for (String pinned : images.pinnedImages()) {
            images.imageStatus(pinned).ifPresent(i -> inUse.add(i.id()));
        }
        records.detect(images.listImages(), inUse, now);
        return inUse;
    }

    /**
     * Removes the images unused for longer than the maximum age (upstream {@code freeOldImages}), once image GC has
     * run for that long; returns the others. Unlike upstream, an image that was never used is aged from when it
     * was first seen, and one younger than the minimum age stays.
     */
    private List<ImageRecord> freeOldImages(List<ImageRecord> candidates, Instant freeTime, Instant beganGC)
            throws ImageGCException {
        Duration maxAge = policy.maxAge();
        if (maxAge.isZero() || Duration.between(beganGC, freeTime).compareTo(maxAge) <= 0) {
            return candidates;
        }
        List<ImageRecord> remaining = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (ImageRecord image : candidates) {
            boolean tooOld = Duration.between(image.unusedSince(), freeTime).compareTo(maxAge) > 0;
            if (!tooOld || youngerThanMinAge(image, freeTime)) {
                remaining.add(image);
                continue;
            }
            String error = freeImage(image, REASON_AGE);
            if (error != null) {
                errors.add(error);
                remaining.add(image);
            }
        }
        if (!errors.isEmpty()) {
            throw new ImageGCException("wanted to free images older than " + formatAge(maxAge)
                    + ", encountered errors in image deletion: " + errors, null);
        }
        return remaining;
    }

    /**
     * Removes candidates in order until {@code bytesToFree} are freed (upstream {@code freeSpace}), skipping those
     * younger than the minimum age; returns the bytes freed.
     */
    private long freeSpace(long bytesToFree, Instant freeTime, List<ImageRecord> candidates) throws ImageGCException {
        long freed = 0;
        List<String> errors = new ArrayList<>();
        for (ImageRecord image : candidates) {
            if (youngerThanMinAge(image, freeTime)) {
                continue;
            }
            String error = freeImage(image, REASON_SPACE);
            if (error != null) {
                errors.add(error);
                continue;
            }
            freed += image.size();
            if (freed >= bytesToFree) {
                break;
            }
        }
        if (!errors.isEmpty()) {
            throw new ImageGCException("wanted to free " + bytesToFree + " bytes, but freed " + freed
                    + " bytes space with errors in image deletion: " + errors, null);
        }
        return freed;
    }

    /** An image just pulled may be about to be used by a container that starts. */
    private boolean youngerThanMinAge(ImageRecord image, Instant freeTime) {
        return Duration.between(image.firstDetected(), freeTime).compareTo(policy.minAge()) < 0;
    }

    /** Removes one image; returns why it could not, or null. */
    private String freeImage(ImageRecord image, String reason) {
        log.info("Removing image {} to free {} bytes", image.id(), image.size());
        try {
            images.removeImage(image.id());
        } catch (RuntimeException e) {
            return e.getMessage();
        }
        records.remove(image.id());
        observer.imageCollected(reason);
        return null;
    }

    private static String formatAge(Duration d) {
        return GoDuration.format(d);
    }
}
