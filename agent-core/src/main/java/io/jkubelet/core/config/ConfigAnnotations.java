package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;
import java.util.Set;

/**
 * The annotations the kubelet keeps on pods it got from its sources, after {@code pod_update.go}.
 */
public final class ConfigAnnotations {

    /** The source the pod came from: {@code file}, {@code http} or {@code api}. */
    public static final String CONFIG_SOURCE = "kubernetes.io/config.source";
    /** On a static pod: its UID, the hash of its manifest. On a mirror pod: the hash of its static pod. */
    public static final String CONFIG_HASH = "kubernetes.io/config.hash";
    /** When {@link PodConfig} first saw the pod, RFC 3339 with nanoseconds. */
    public static final String CONFIG_FIRST_SEEN = "kubernetes.io/config.seen";
    /** Marks a mirror pod: the apiserver's copy of a static pod; the value is the static pod's hash. */
    public static final String CONFIG_MIRROR = "kubernetes.io/config.mirror";

    /**
     * Annotations the kubelet itself sets. They are ignored when a source's pod is compared with the
     * one the kubelet has, and the kubelet's values survive an update.
     */
    public static final Set<String> LOCAL_ANNOTATIONS = Set.of(CONFIG_SOURCE, CONFIG_MIRROR, CONFIG_FIRST_SEEN);

    private ConfigAnnotations() {
    }

    /** The pod's source, from its {@link #CONFIG_SOURCE} annotation; {@code null} when it has none. */
    public static String podSource(Pod pod) {
        return annotations(pod).get(CONFIG_SOURCE);
    }

    /** A static pod is one that did not come from the apiserver. */
    public static boolean isStaticPod(Pod pod) {
        String source = podSource(pod);
        return source != null && !source.equals(PodSources.API);
    }

    public static boolean isMirrorPod(Pod pod) {
        return annotations(pod).containsKey(CONFIG_MIRROR);
    }

    /** {@code <name>_<namespace>}, the kubelet's key for a pod across UIDs ({@code GetPodFullName}). */
    public static String podFullName(Pod pod) {
        ObjectMeta meta = pod.getMetadata();
        String name = meta == null ? null : meta.getName();
        String namespace = meta == null ? null : meta.getNamespace();
        return (name == null ? "" : name) + "_" + (namespace == null ? "" : namespace);
    }

    private static Map<String, String> annotations(Pod pod) {
        ObjectMeta meta = pod.getMetadata();
        Map<String, String> annotations = meta == null ? null : meta.getAnnotations();
        return annotations == null ? Map.of() : annotations;
    }
}
