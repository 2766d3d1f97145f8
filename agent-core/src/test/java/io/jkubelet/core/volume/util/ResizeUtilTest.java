package io.jkubelet.core.volume.util;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.objects.PersistentVolumeClient;
import io.jkubelet.core.volumemanager.FakePersistentVolumes;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The claim's status once its volume grew on the node (upstream {@code MarkFSResizeFinished}): the new capacity, the
 * resize controller's conditions gone and any other kept, sent with the resource version the claim was read at.
 */
class ResizeUtilTest {
    private static PersistentVolumeClaimBuilder claim(String... conditionTypes) {
        var b = new PersistentVolumeClaimBuilder().withNewMetadata().withNamespace("default").withName("data")
                .withResourceVersion("42").endMetadata().withNewStatus().withPhase("Bound")
                .addToCapacity("storage", new Quantity("1Gi")).endStatus();
        for (String type : conditionTypes) {
            b.editStatus().addNewCondition().withType(type).withStatus("True").endCondition().endStatus();
        }
        return b;
    }

    @Test
    void theNewCapacityReplacesTheOldAndTheResizeConditionsGo() throws Exception {
        FakePersistentVolumes apiserver = new FakePersistentVolumes();
        PersistentVolumeClaim pvc = claim("FileSystemResizePending").build();
        apiserver.put(pvc);

        ResizeUtil.markFsResizeFinished(pvc, new Quantity("2Gi"), apiserver);

        assertThat(apiserver.statusPatches).containsExactly("default/data {\"metadata\":{\"resourceVersion\":\"42\"},"
                + "\"status\":{\"capacity\":{\"storage\":\"2Gi\"},\"conditions\":null}}");
    }

    @Test
    void conditionsOtherThanTheResizeControllersAreKept() {
        PersistentVolumeClaim pvc = claim("Resizing", "ModifyingVolume", "FileSystemResizePending").build();

        String patch = ResizeUtil.createPvcPatch(pvc, new Quantity("2Gi"),
                ResizeUtil.mergeResizeConditionOnPvc(pvc.getStatus().getConditions()));

        assertThat(patch).isEqualTo("{\"metadata\":{\"resourceVersion\":\"42\"},\"status\":{\"capacity\":{\"storage\":"
                + "\"2Gi\"},\"conditions\":[{\"status\":\"True\",\"type\":\"ModifyingVolume\"}]}}");
    }

    @Test
    void aClaimWithoutConditionsGetsItsCapacityOnly() {
        assertThat(ResizeUtil.createPvcPatch(claim().build(), new Quantity("3Gi"), java.util.List.of())).isEqualTo(
                "{\"metadata\":{\"resourceVersion\":\"42\"},\"status\":{\"capacity\":{\"storage\":\"3Gi\"}}}");
    }

    @Test
    void aRefusedPatchSaysWhatTheApiserverSaid() {
        PersistentVolumeClient apiserver = new PersistentVolumeClient() {
            @Override
            public PersistentVolumeClaim getPersistentVolumeClaim(String namespace, String name) {
                return null;
            }

            @Override
            public PersistentVolume getPersistentVolume(String name) {
                return null;
            }

            @Override
            public PersistentVolumeClaim patchPersistentVolumeClaimStatus(String namespace, String name, String patch) {
                throw new ApiException("PATCH failed with 409", 409, new StatusBuilder().withMessage("Operation cannot be "
                        + "fulfilled on persistentvolumeclaims \"data\": the object has been modified; please apply your "
                        + "changes to the latest version and try again").build(), null);
            }
        };

        assertThatThrownBy(() -> ResizeUtil.markFsResizeFinished(claim().build(), new Quantity("2Gi"), apiserver))
                .hasMessage("patchPVCStatus failed to patch PVC \"data\": Operation cannot be fulfilled on "
                        + "persistentvolumeclaims \"data\": the object has been modified; please apply your changes to "
                        + "the latest version and try again");
    }
}
