package io.jkubelet.core.nodestatus;

import java.util.List;

/**
 * What the node status reports of the volume manager and tells it back (upstream's {@code VolumesInUse} setter and
 * {@code MarkVolumesAsReportedInUse}): the attachable volumes in use, which the attach/detach controller must not detach,
 * and which of them the apiserver's Node lists, so that their pods may mount them. Thread-safe.
 */
public interface NodeVolumes {
    /** A node without a volume manager: nothing in use, and no list is written. */
    NodeVolumes NONE = new NodeVolumes() {
        @Override
        public boolean reconcilerStatesHasBeenSynced() {
            return false;
        }

        @Override
        public List<String> getVolumesInUse() {
            return List.of();
        }

        @Override
        public void markVolumesAsReportedInUse(List<String> volumesReportedAsInUse) {}
    };

    /** Whether the volume manager knows what the node has (after a restart: once it reconstructed what is mounted). */
    boolean reconcilerStatesHasBeenSynced();

    /** The unique names of the attachable volumes pods want or the node has, sorted. */
    List<String> getVolumesInUse();

    /** The Node as the apiserver has it lists these in {@code status.volumesInUse}. */
    void markVolumesAsReportedInUse(List<String> volumesReportedAsInUse);
}
