package io.jkubelet.core.volume.util;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Status;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.objects.PersistentVolumeClient;
import io.jkubelet.core.volume.VolumeException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Upstream {@code pkg/volume/util/resize_util.go}, the kubelet's part: a claim whose volume grew on the node gets the
 * new size as its {@code status.capacity} and loses its resize conditions, in one patch of its status that carries
 * the {@code resourceVersion} it was read at (a claim changed since is refused with a conflict, and the
 * expansion is tried again). The v1.20 NodeRestriction admission lets a node change exactly these two fields.
 */
public final class ResizeUtil {
    /**
     * Upstream's {@code knownResizeConditions} (v1.30): the conditions the resize controller sets, which the node
     * removes once the file system grew; other conditions are kept.
     */
    static final Set<String> KNOWN_RESIZE_CONDITIONS = Set.of("FileSystemResizePending", "Resizing");
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private ResizeUtil() {}

    /**
     * Upstream {@code MarkFSResizeFinished}: {@code status.capacity.storage} set to {@code newSize}, the resize
     * conditions removed.
     *
     * @return the claim the apiserver answered with
     * @throws VolumeException {@code patchPVCStatus failed to patch PVC "<name>": <the apiserver's message>}
     */
    public static PersistentVolumeClaim markFsResizeFinished(PersistentVolumeClaim pvc, Quantity newSize,
                                                             PersistentVolumeClient client) throws VolumeException {
        String patch = createPvcPatch(pvc, newSize, mergeResizeConditionOnPvc(conditions(pvc)));
        try {
            return client.patchPersistentVolumeClaimStatus(pvc.getMetadata().getNamespace(), pvc.getMetadata().getName(),
                    patch);
        } catch (ApiException e) {
            String why = e.status().map(Status::getMessage).filter(m -> !m.isEmpty()).orElse(e.getMessage());
            throw new VolumeException("patchPVCStatus failed to patch PVC \"" + pvc.getMetadata().getName() + "\": " + why);
        }
    }

    /** Upstream {@code MergeResizeConditionOnPVC} with no resize condition to set: every other condition kept. */
    static List<PersistentVolumeClaimCondition> mergeResizeConditionOnPvc(List<PersistentVolumeClaimCondition> old) {
        return old.stream().filter(c -> !KNOWN_RESIZE_CONDITIONS.contains(c.getType())).toList();
    }

    /**
     * Upstream {@code createPVCPatch}: the patch from the claim to one with {@code newSize} and {@code newConditions} (a
     * subset of its conditions), with the claim's {@code resourceVersion}. Upstream sends the two-way strategic merge
     * patch; this is the JSON merge patch that means the same to the apiserver for these two fields: the capacity's
     * key, and the conditions {@code null} when none is left, else the whole list kept (a merge patch replaces a list;
     * the resource version guarantees nothing else changed it).
     */
    static String createPvcPatch(PersistentVolumeClaim pvc, Quantity newSize,
                                 List<PersistentVolumeClaimCondition> newConditions) {
        ObjectNode patch = JSON.createObjectNode();
        patch.putObject("metadata").put("resourceVersion", pvc.getMetadata().getResourceVersion());
        ObjectNode status = patch.putObject("status");
        status.putObject("capacity").put("storage", newSize.toString());
        if (newConditions.size() != conditions(pvc).size()) {
            if (newConditions.isEmpty()) {
                status.putNull("conditions");
            } else {
                status.set("conditions", JSON.valueToTree(newConditions));
            }
        }
        return JSON.writeValueAsString(patch);
    }

    /** Go's {@code ResourceList.Storage()}: the {@code storage} quantity, zero when there is none. */
    public static Quantity storage(Map<String, Quantity> resources) {
        Quantity q = resources == null ? null : resources.get("storage");
        return q == null ? new Quantity("0") : q;
    }

    /** Go's {@code Quantity.IsZero()}, a missing quantity taken as zero. */
    public static boolean isZero(Quantity q) {
        return q == null || Quantity.getAmountInBytes(q).signum() == 0;
    }

    private static List<PersistentVolumeClaimCondition> conditions(PersistentVolumeClaim pvc) {
        return pvc.getStatus() == null || pvc.getStatus().getConditions() == null ? List.of()
                : pvc.getStatus().getConditions();
    }
}
