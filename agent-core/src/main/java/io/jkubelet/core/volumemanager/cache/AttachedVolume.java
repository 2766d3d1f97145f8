package io.jkubelet.core.volumemanager.cache;

import io.fabric8.kubernetes.api.model.Quantity;
import io.jkubelet.core.volume.VolumePlugin;
import io.jkubelet.core.volume.VolumeSpec;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** A volume on the node and the pods it is mounted for, as the actual state of the world holds it (upstream {@code attachedVolume}). */
final class AttachedVolume {
    /**
     * Upstream's {@code volumeAttachability}: a volume found on disk after a restart is {@code UNCERTAIN} until the
     * node's {@code status.volumesAttached} says (it reads as not attachable until then, as upstream's).
     */
    enum Attachability { TRUE, FALSE, UNCERTAIN }

    final String volumeName;
    final VolumeSpec spec;
    final VolumePlugin plugin;
    Attachability attachability;
    /** Upstream's {@code devicePath}: where the attach/detach controller says the volume is on the node; "" for none. */
    String devicePath;
    /** Where its global mount is (or perhaps is); null when it has none. */
    Path deviceMountPath;
    boolean deviceUncertain;
    /**
     * Upstream's {@code persistentVolumeSize}: the claim's {@code status.capacity} when the populator first found it
     * mounted, then each size an expansion reached; null until then.
     */
    Quantity persistentVolumeSize;
    /** Upstream's {@code volumeInUseErrorForExpansion}: the driver cannot expand it while it is in use. */
    boolean volumeInUseErrorForExpansion;
    final Map<String, PodMount> pods = new LinkedHashMap<>();

    AttachedVolume(String volumeName, VolumeSpec spec, VolumePlugin plugin, Attachability attachability,
                   String devicePath) {
        this.volumeName = volumeName;
        this.spec = spec;
        this.plugin = plugin;
        this.attachability = attachability;
        this.devicePath = devicePath;
    }

    static Attachability attachability(boolean attachable) {
        return attachable ? Attachability.TRUE : Attachability.FALSE;
    }
}
