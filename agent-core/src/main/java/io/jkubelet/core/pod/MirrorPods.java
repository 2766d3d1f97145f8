package io.jkubelet.core.pod;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.config.ConfigAnnotations;
import io.jkubelet.core.config.PodCodec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What makes a mirror pod the apiserver's copy of a static pod (upstream {@code pkg/kubelet/pod/mirror_client.go}). */
public final class MirrorPods {

    private MirrorPods() {
    }

    /** The static pod's hash: its {@code kubernetes.io/config.hash}, else its UID (which is that hash). */
    public static String podHash(Pod staticPod) {
        Map<String, String> a = staticPod.getMetadata().getAnnotations();
        String hash = a == null ? null : a.get(ConfigAnnotations.CONFIG_HASH);
        return hash != null ? hash : staticPod.getMetadata().getUid();
    }

    /** Upstream {@code IsMirrorPodOf}: same name and namespace, and the mirror annotation holds the static pod's hash. */
    public static boolean isMirrorPodOf(Pod mirror, Pod staticPod) {
        ObjectMeta m = mirror.getMetadata();
        ObjectMeta s = staticPod.getMetadata();
        if (!m.getName().equals(s.getName()) || !m.getNamespace().equals(s.getNamespace())) {
            return false;
        }
        Map<String, String> a = m.getAnnotations();
        String hash = a == null ? null : a.get(ConfigAnnotations.CONFIG_MIRROR);
        return hash != null && hash.equals(podHash(staticPod));
    }

    /**
     * The mirror pod to create for {@code staticPod}: a copy with the mirror annotation and the Node as controlling
     * owner, so that deleting the Node deletes its mirror pods. UID, resource version and status are the apiserver's.
     */
    public static Pod mirrorOf(Pod staticPod, String nodeName, String nodeUid) {
        Pod copy = PodCodec.deepCopy(staticPod);
        ObjectMeta meta = copy.getMetadata();
        Map<String, String> annotations = new LinkedHashMap<>(meta.getAnnotations() == null ? Map.of() : meta.getAnnotations());
        annotations.put(ConfigAnnotations.CONFIG_MIRROR, podHash(staticPod));
        meta.setAnnotations(annotations);
        meta.setUid(null);
        meta.setResourceVersion(null);
        meta.setCreationTimestamp(null);
        meta.setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion("v1").withKind("Node")
                .withName(nodeName).withUid(nodeUid).withController(true).build()));
        copy.setStatus(null);
        return copy;
    }
}
