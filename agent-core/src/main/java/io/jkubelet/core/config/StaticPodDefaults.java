package io.jkubelet.core.config;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Toleration;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What the kubelet adds to a pod from a static source ({@code applyDefaults} in
 * {@code pkg/kubelet/config/common.go}): a UID that is the hash of the manifest, a name unique to the
 * node, the default namespace, the node name, the {@code kubernetes.io/config.hash} annotation, the
 * NoExecute toleration for file pods, and the Pending phase. Immutable and thread-safe.
 *
 * @param nodeName the node's name, as registered
 * @param source   the manifest's path (file pods) or the URL (http pods)
 * @param isFile   whether the pod came from a file
 */
public record StaticPodDefaults(String nodeName, String source, boolean isFile) {

    public static final String DEFAULT_NAMESPACE = "default";

    public StaticPodDefaults {
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(source, "source");
    }

    public static StaticPodDefaults forFile(String nodeName, String path) {
        return new StaticPodDefaults(nodeName, path, true);
    }

    public static StaticPodDefaults forUrl(String nodeName, String url) {
        return new StaticPodDefaults(nodeName, url, false);
    }

    /**
     * Applies the static pod defaults to {@code pod}, in place.
     *
     * <p>Call it after {@link PodDefaults#apply}: the kubelet decodes a manifest through the API
     * defaulting and only then hashes it, so the UID is the hash of the API-defaulted pod as written
     * (before the name suffix, namespace and node name added here), followed by
     * {@code host:<node>} and {@code file:<path>} for a file, or {@code url:<url>} for a URL. A UID
     * given in the manifest is kept, as upstream does.
     */
    public void apply(Pod pod) {
        if (pod.getMetadata() == null) {
            pod.setMetadata(new ObjectMeta());
        }
        ObjectMeta meta = pod.getMetadata();
        if (meta.getUid() == null || meta.getUid().isEmpty()) {
            meta.setUid(hash(pod));
        }
        meta.setName(generatePodName(meta.getName(), nodeName));
        if (meta.getNamespace() == null || meta.getNamespace().isEmpty()) {
            meta.setNamespace(DEFAULT_NAMESPACE);
        }
        if (pod.getSpec() == null) {
            pod.setSpec(new PodSpec());
        }
        pod.getSpec().setNodeName(nodeName);
        if (meta.getAnnotations() == null) {
            meta.setAnnotations(new LinkedHashMap<>());
        }
        meta.getAnnotations().put(ConfigAnnotations.CONFIG_HASH, meta.getUid());
        if (isFile) {
            // Static pods must survive node problems: tolerate every NoExecute taint.
            Toleration noExecute = new Toleration();
            noExecute.setOperator("Exists");
            noExecute.setEffect("NoExecute");
            addOrUpdateToleration(pod, noExecute);
        }
        if (pod.getStatus() == null) {
            pod.setStatus(new PodStatus());
        }
        pod.getStatus().setPhase("Pending");
    }

    /** {@code <name>-<lowercase node name>}: unique among nodes, so the mirror pods do not collide. */
    public static String generatePodName(String name, String nodeName) {
        return name + "-" + nodeName.toLowerCase(Locale.ROOT);
    }

    /**
     * md5 over the pod's canonical JSON, then the source. Upstream hashes Go's printed form of the
     * object ({@code hash.DeepHashObject}), which Java cannot reproduce; the canonical JSON (sorted
     * keys) is as stable: the same manifest content gives the same UID on every read and restart.
     */
    private String hash(Pod pod) {
        MessageDigest md5;
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks MD5", e);
        }
        md5.update(PodCodec.canonicalBytes(pod));
        if (isFile) {
            md5.update(("host:" + nodeName).getBytes(StandardCharsets.UTF_8));
            md5.update(("file:" + source).getBytes(StandardCharsets.UTF_8));
        } else {
            md5.update(("url:" + source).getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(md5.digest());
    }

    /**
     * Adds {@code toleration} unless an equal one is there; one matching it in key, operator, value
     * and effect but differing otherwise is replaced ({@code helper.AddOrUpdateTolerationInPod}).
     */
    static void addOrUpdateToleration(Pod pod, Toleration toleration) {
        List<Toleration> current = pod.getSpec().getTolerations() == null ? List.of() : pod.getSpec().getTolerations();
        List<Toleration> updated = new ArrayList<>(current.size() + 1);
        boolean replaced = false;
        for (Toleration existing : current) {
            if (matches(toleration, existing)) {
                if (Objects.equals(toleration.getTolerationSeconds(), existing.getTolerationSeconds())) {
                    return;
                }
                updated.add(toleration);
                replaced = true;
            } else {
                updated.add(existing);
            }
        }
        if (!replaced) {
            updated.add(toleration);
        }
        pod.getSpec().setTolerations(updated);
    }

    private static boolean matches(Toleration a, Toleration b) {
        return Objects.equals(emptyToNull(a.getKey()), emptyToNull(b.getKey()))
                && Objects.equals(emptyToNull(a.getEffect()), emptyToNull(b.getEffect()))
                && Objects.equals(emptyToNull(a.getOperator()), emptyToNull(b.getOperator()))
                && Objects.equals(emptyToNull(a.getValue()), emptyToNull(b.getValue()));
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
