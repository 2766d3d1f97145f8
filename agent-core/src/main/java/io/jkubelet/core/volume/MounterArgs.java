package io.jkubelet.core.volume;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContext;

import java.util.ArrayList;
import java.util.List;

/**
 * Upstream {@code volume.MounterArgs}: what the mount operation tells a {@link Mounter} of the pod it sets the volume up
 * for, read from the pod's security contexts once per mount (upstream's {@code GenerateMountVolumeFunc}). Each plugin
 * decides what it does with it: emptyDir, configMap, secret, downwardAPI and projected give their files to
 * {@code fsGroup} always, gitRepo after a revision's checkout, a local volume and CSI (by its driver's policy) when
 * writable; hostPath and NFS never. Only a projected service account token is given to {@code fsUser}.
 *
 * @param fsUser the user every container of the pod runs as, by its security contexts (upstream's {@code FsUserFrom}),
 *     null when one sets none or two differ
 * @param fsGroup the pod's {@code fsGroup}, null when it has none
 * @param fsGroupChangePolicy the pod's {@code fsGroupChangePolicy}, null when it has none (upstream's {@code Always})
 */
public record MounterArgs(Long fsUser, Long fsGroup, String fsGroupChangePolicy) {
    /** A pod with no security context. */
    public static final MounterArgs NONE = new MounterArgs(null, null, null);

    /** The pod's {@code fsGroup}, {@code fsGroupChangePolicy} and its containers' one user. */
    public static MounterArgs of(Pod pod) {
        if (pod.getSpec() == null) {
            return NONE;
        }
        PodSecurityContext sc = pod.getSpec().getSecurityContext();
        return new MounterArgs(fsUserFrom(pod), sc == null ? null : sc.getFsGroup(),
                sc == null ? null : sc.getFsGroupChangePolicy());
    }

    /**
     * Upstream {@code FsUserFrom}: the effective {@code runAsUser} (the container's, else the pod's) of every init,
     * regular and ephemeral container, when they all have the same one; the image's user does not count.
     */
    private static Long fsUserFrom(Pod pod) {
        List<SecurityContext> containers = new ArrayList<>();
        for (List<Container> list : List.of(nonNull(pod.getSpec().getInitContainers()), nonNull(pod.getSpec().getContainers()))) {
            list.forEach(c -> containers.add(c.getSecurityContext()));
        }
        for (EphemeralContainer c : nonNull(pod.getSpec().getEphemeralContainers())) {
            containers.add(c.getSecurityContext());
        }
        PodSecurityContext psc = pod.getSpec().getSecurityContext();
        Long podUser = psc == null ? null : psc.getRunAsUser();
        Long fsUser = null;
        for (SecurityContext sc : containers) {
            Long user = sc != null && sc.getRunAsUser() != null ? sc.getRunAsUser() : podUser;
            if (user == null || (fsUser != null && !fsUser.equals(user))) {
                return null;
            }
            fsUser = user;
        }
        return fsUser;
    }

    private static <T> List<T> nonNull(List<T> list) {
        return list == null ? List.of() : list;
    }
}
