package io.jkubelet.core.volume;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;

/**
 * Upstream {@code volume.MounterArgs}: what the mount operation tells a {@link Mounter} of the pod it sets the volume up
 * for, read from the pod's {@code securityContext} once per mount (upstream's {@code GenerateMountVolumeFunc}). Each
 * plugin decides what it does with it: emptyDir, configMap, secret, downwardAPI and projected give their files to
 * {@code fsGroup} always, a local volume and CSI (by its driver's policy) when writable; hostPath and NFS never.
 *
 * @param fsGroup the pod's {@code fsGroup}, null when it has none
 * @param fsGroupChangePolicy the pod's {@code fsGroupChangePolicy}, null when it has none (upstream's {@code Always})
 */
public record MounterArgs(Long fsGroup, String fsGroupChangePolicy) {
    /** A pod with no security context: nothing to give to a group. */
    public static final MounterArgs NONE = new MounterArgs(null, null);

    /** The pod's {@code securityContext.fsGroup} and {@code fsGroupChangePolicy}. */
    public static MounterArgs of(Pod pod) {
        PodSecurityContext sc = pod.getSpec() == null ? null : pod.getSpec().getSecurityContext();
        if (sc == null) {
            return NONE;
        }
        return new MounterArgs(sc.getFsGroup(), sc.getFsGroupChangePolicy());
    }
}
