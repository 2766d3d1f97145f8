package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The pod decoded from each static pod manifest, kept with the bytes it came from. The file source reads every
 * manifest again each {@code fileCheckFrequency} (20 s); one whose bytes are those decoded last time gives a copy of
 * its pod instead of being parsed, defaulted and validated again, which with a full node's 110 manifests was a fifth of
 * an idle agent's CPU. Decoding is a function of the bytes (the node name and the file's path are the source's own), so
 * the pods are the same. Copies are deep: the pod config stamps the pods it is given. Not thread-safe: the source's
 * reads are serialised.
 */
final class DecodedManifests {
    private record Decoded(byte[] data, Pod pod) {}

    private final Map<Path, Decoded> byFile = new HashMap<>();

    /** A copy of the pod decoded from {@code file} last time, when {@code data} is what it was decoded from. */
    Optional<Pod> unchanged(Path file, byte[] data) {
        Decoded last = byFile.get(file);
        return last != null && Arrays.equals(last.data(), data) ? Optional.of(copy(last.pod())) : Optional.empty();
    }

    /** Keeps what {@code file}'s {@code data} decoded to (a copy, before anyone stamps it). */
    void remember(Path file, byte[] data, Pod pod) {
        byFile.put(file, new Decoded(data, copy(pod)));
    }

    /** Forgets a file whose content did not decode to a pod. */
    void forget(Path file) {
        byFile.remove(file);
    }

    /** Forgets the files that are gone. */
    void retainOnly(Collection<Path> files) {
        byFile.keySet().retainAll(files);
    }

    private static Pod copy(Pod pod) {
        return new PodBuilder(pod).build();
    }
}
