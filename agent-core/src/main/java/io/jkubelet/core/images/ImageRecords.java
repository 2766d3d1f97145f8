package io.jkubelet.core.images;

import io.jkubelet.core.runtime.Image;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What image GC remembers of each image (upstream {@code imageRecords}): when it was first seen, when it was last
 * seen in use, its size. The runtime keeps no use times, so these come only from the kubelet's own observations.
 * Not thread-safe: its {@link ImageGCManager} serialises access.
 */
final class ImageRecords {

    /**
     * One image as image GC weighs it.
     *
     * @param lastUsed the last detection that found a container using it; null when none did
     */
    record ImageRecord(String id, Instant firstDetected, Instant lastUsed, long size) {
        /** Since when the image has not been used: its last use, or its first sighting when it never was. */
        Instant unusedSince() {
            return lastUsed != null ? lastUsed : firstDetected;
        }
    }

    /** Least recently used first, never-used before used; then the longest known; the id settles ties. */
    static final Comparator<ImageRecord> EVICTION_ORDER = Comparator
            .comparing(ImageRecord::lastUsed, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(ImageRecord::firstDetected)
            .thenComparing(ImageRecord::id);

    private final Map<String, ImageRecord> records = new HashMap<>();

    /**
     * Takes in what the runtime has now (upstream {@code detectImages}): a new image is first detected at
     * {@code now}, an image in use was last used {@code now}, sizes are refreshed and images gone are forgotten.
     *
     * @param inUse the ids of the images some container uses
     */
    void detect(List<Image> images, Set<String> inUse, Instant now) {
        Set<String> present = new HashSet<>();
        for (Image image : images) {
            present.add(image.id());
            ImageRecord before = records.get(image.id());
            Instant firstDetected = before == null ? now : before.firstDetected();
            Instant lastUsed = inUse.contains(image.id()) ? now : before == null ? null : before.lastUsed();
            records.put(image.id(), new ImageRecord(image.id(), firstDetected, lastUsed, image.size()));
        }
        records.keySet().retainAll(present);
    }

    /** The images no container uses, in the order image GC removes them (upstream {@code imagesInEvictionOrder}). */
    List<ImageRecord> evictionOrder(Set<String> inUse) {
        List<ImageRecord> unused = new ArrayList<>();
        for (ImageRecord r : records.values()) {
            if (!inUse.contains(r.id())) {
                unused.add(r);
            }
        }
        unused.sort(EVICTION_ORDER);
        return unused;
    }

    void remove(String id) {
        records.remove(id);
    }
}
