package io.jkubelet.core.volume.util.operationexecutor;

import io.fabric8.kubernetes.api.model.AttachedVolume;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.volume.VolumeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Upstream {@code GenerateVerifyControllerAttachedVolumeFunc}'s operation: the kubelet does not attach, it waits for the
 * attach/detach controller. A volume whose plugin attaches nothing is on the node at once; an attachable one only once
 * the node status has reported it in use (so that the controller does not detach it under a mount) and the node's
 * {@code status.volumesAttached} lists it, with the device path it gives. A failure is logged and backs the operation
 * off; it records no event (upstream's {@code EventRecorderFunc} is nil): the pod's wait names the volume under
 * {@code unattached volumes}.
 */
final class VerifyControllerAttachedVolume {
    private static final Logger log = LoggerFactory.getLogger(VerifyControllerAttachedVolume.class);

    /** This node's Node; null on a standalone node, which has no attachable volume. */
    private final NodeReader node;

    VerifyControllerAttachedVolume(NodeReader node) {
        this.node = node;
    }

    void verify(VolumeToMount volume, ActualStateOfWorldAttacherUpdater asw) throws VolumeException {
        if (!volume.pluginIsAttachable()) {
            asw.markVolumeAsAttached(volume.volumeName(), volume.spec(), volume.plugin(), false, "");
            return;
        }
        if (!volume.reportedInUse()) {
            // The node status goes out every nodeStatusUpdateFrequency: this clears within one.
            throw new VolumeException(volume.detailedMessage(
                    "Volume has not been added to the list of VolumesInUse in the node's volume status", ""));
        }
        for (AttachedVolume attached : volumesAttached(volume)) {
            if (volume.volumeName().equals(attached.getName())) {
                String devicePath = attached.getDevicePath() == null ? "" : attached.getDevicePath();
                asw.markVolumeAsAttached(volume.volumeName(), volume.spec(), volume.plugin(), true, devicePath);
                log.info("{}", volume.detailedMessage("Controller attach succeeded", "device path: \"" + devicePath + "\""));
                return;
            }
        }
        throw new VolumeException(volume.detailedMessage("Volume not attached according to node status", ""));
    }

    private List<AttachedVolume> volumesAttached(VolumeToMount volume) throws VolumeException {
        try {
            if (node == null) {
                throw new ApiException("no apiserver: the node is standalone", ApiException.NO_ANSWER, null, null);
            }
            return node.volumesAttached();
        } catch (ApiException e) {
            throw new VolumeException(volume.detailedMessage(
                    "VerifyControllerAttachedVolume failed fetching node from API server", ": " + e.getMessage()));
        }
    }
}
