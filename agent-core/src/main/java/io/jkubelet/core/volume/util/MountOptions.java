package io.jkubelet.core.volume.util;

import io.jkubelet.core.volume.VolumeSpec;

import java.util.ArrayList;
import java.util.TreeSet;
import java.util.List;
import java.util.Map;

/**
 * Upstream {@code MountOptionFromSpec} and {@code JoinMountOptions}: a PersistentVolume's {@code mountOptions} and its
 * {@code volume.beta.kubernetes.io/mount-options} annotation, joined with the plugin's own options without repeats and
 * sorted, as upstream's set of them.
 */
public final class MountOptions {
    /** Upstream's {@code v1.MountOptionAnnotation}. */
    static final String MOUNT_OPTION_ANNOTATION = "volume.beta.kubernetes.io/mount-options";

    private MountOptions() {}

    /** The spec's options and {@code options}, each once, sorted. */
    public static List<String> fromSpec(VolumeSpec spec, String... options) {
        TreeSet<String> all = new TreeSet<>();
        var pv = spec.persistentVolume();
        if (pv != null) {
            if (pv.getSpec() != null && pv.getSpec().getMountOptions() != null) {
                all.addAll(pv.getSpec().getMountOptions());
            }
            Map<String, String> annotations = pv.getMetadata().getAnnotations();
            if (annotations != null && annotations.containsKey(MOUNT_OPTION_ANNOTATION)) {
                for (String o : annotations.get(MOUNT_OPTION_ANNOTATION).split(",")) {
                    if (!o.isBlank()) {
                        all.add(o.trim());
                    }
                }
            }
        }
        all.addAll(List.of(options));
        return new ArrayList<>(all);
    }
}
