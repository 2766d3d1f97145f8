package io.jkubelet.core.volume.csi;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.jkubelet.core.apierrors.ApiException;
import io.jkubelet.core.volume.VolumeException;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a driver's {@code storage.k8s.io/v1} CSIDriver object asks of the kubelet (upstream csi plugin's
 * {@code skipAttach}, {@code supportsVolumeLifecycleMode}, the mounter's {@code podAttributes} and
 * {@code getFSGroupPolicy}), and the secrets its volumes name ({@code getCredentialsFromSecret}), read through the
 * apiserver at each use (upstream reads a lister of the same objects). A field the apiserver defaults is taken with its
 * default when absent: {@code attachRequired} true, {@code podInfoOnMount} false, {@code volumeLifecycleModes}
 * {@code [Persistent]}; {@code fsGroupPolicy}, which the apiserver defaults to {@code ReadWriteOnceWithFSType}, is
 * refused when absent, as upstream's. Thread-safe.
 */
final class CsiDriverPolicies {
    static final String FS_GROUP_NONE = "None";
    static final String FS_GROUP_FILE = "File";
    static final String FS_GROUP_RWO_WITH_FS_TYPE = "ReadWriteOnceWithFSType";

    /** Null on a standalone node. */
    private final CsiObjects objects;

    CsiDriverPolicies(CsiObjects objects) {
        this.objects = objects;
    }

    boolean connected() {
        return objects != null;
    }

    /** The apiserver's objects; only when {@link #connected()}. */
    CsiObjects objects() {
        return objects;
    }

    /** The driver's CSIDriver, or null when it has none. */
    CSIDriver csiDriver(String driver) throws VolumeException {
        if (objects == null) {
            throw new VolumeException("CSIDriver lister does not exist");
        }
        try {
            return objects.getCsiDriver(driver);
        } catch (ApiException e) {
            throw new VolumeException(why(e));
        }
    }

    /** Upstream {@code skipAttach}: only a CSIDriver saying {@code attachRequired: false} skips the attachment. */
    boolean skipAttach(String driver) throws VolumeException {
        CSIDriver d = csiDriver(driver);
        return d != null && d.getSpec() != null && Boolean.FALSE.equals(d.getSpec().getAttachRequired());
    }

    /**
     * Upstream {@code supportsVolumeLifecycleMode}: a driver without a CSIDriver supports persistent volumes only; one
     * with supports the modes it lists.
     *
     * @throws VolumeException {@code volume mode "Ephemeral" not supported by driver d (only supports ["Persistent"])}
     */
    void checkVolumeLifecycleMode(String driver, String mode) throws VolumeException {
        // Without an apiserver (upstream: without a lister) no CSIDriver is known.
        CSIDriver d = objects == null ? null : csiDriver(driver);
        if (d == null) {
            if (CsiSource.PERSISTENT.equals(mode)) {
                return;
            }
            throw new VolumeException("volume mode \"" + mode + "\" not supported by driver " + driver
                    + " (no CSIDriver object)");
        }
        List<String> modes = d.getSpec() == null || d.getSpec().getVolumeLifecycleModes() == null
                || d.getSpec().getVolumeLifecycleModes().isEmpty() ? List.of(CsiSource.PERSISTENT)
                : d.getSpec().getVolumeLifecycleModes();
        if (!modes.contains(mode)) {
            throw new VolumeException("volume mode \"" + mode + "\" not supported by driver " + driver + " (only supports "
                    + modes.stream().map(m -> "\"" + m + "\"").collect(Collectors.joining(" ", "[", "]")) + ")");
        }
    }

    /**
     * Upstream mounter's {@code podAttributes}: with {@code podInfoOnMount: true}, the pod's name, namespace, UID and
     * service account, and whether the volume is ephemeral, for the volume context; empty otherwise (or without a
     * CSIDriver).
     */
    Map<String, String> podAttributes(String driver, Pod pod, boolean ephemeral) throws VolumeException {
        CSIDriver d = csiDriver(driver);
        if (d == null || d.getSpec() == null || !Boolean.TRUE.equals(d.getSpec().getPodInfoOnMount())) {
            return Map.of();
        }
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("csi.storage.k8s.io/pod.name", pod.getMetadata().getName());
        attrs.put("csi.storage.k8s.io/pod.namespace", pod.getMetadata().getNamespace());
        attrs.put("csi.storage.k8s.io/pod.uid", pod.getMetadata().getUid());
        String sa = pod.getSpec() == null || pod.getSpec().getServiceAccountName() == null ? ""
                : pod.getSpec().getServiceAccountName();
        attrs.put("csi.storage.k8s.io/serviceAccount.name", sa);
        attrs.put("csi.storage.k8s.io/ephemeral", Boolean.toString(ephemeral));
        return attrs;
    }

    /**
     * Upstream {@code getFSGroupPolicy}: the CSIDriver's, {@code ReadWriteOnceWithFSType} for a driver without one.
     *
     * @throws VolumeException {@code kubernetes.io/csi: expected valid fsGroupPolicy, received nil value or empty string}
     *     for a CSIDriver without a policy (the apiserver defaults it: only an object it did not default lacks one)
     */
    String fsGroupPolicy(String driver) throws VolumeException {
        CSIDriver d = csiDriver(driver);
        if (d == null) {
            return FS_GROUP_RWO_WITH_FS_TYPE;
        }
        String policy = d.getSpec() == null ? null : d.getSpec().getFsGroupPolicy();
        if (policy == null || policy.isEmpty()) {
            throw new VolumeException(CsiRegistrationHandler.CSI_PLUGIN_NAME
                    + ": expected valid fsGroupPolicy, received nil value or empty string");
        }
        return policy;
    }

    /**
     * Upstream {@code getCredentialsFromSecret}: the secret's data as strings.
     *
     * @throws VolumeException {@code failed to find the secret s in the namespace ns with error: ...}
     */
    Map<String, String> credentials(SecretReference ref) throws VolumeException {
        Secret secret;
        try {
            secret = objects == null ? null : objects.getSecret(ref.getNamespace(), ref.getName());
            if (secret == null) {
                throw new ApiException("secrets \"" + ref.getName() + "\" not found", 404, null, null);
            }
        } catch (ApiException e) {
            throw new VolumeException("failed to find the secret " + ref.getName() + " in the namespace "
                    + ref.getNamespace() + " with error: " + why(e));
        }
        Map<String, String> creds = new LinkedHashMap<>();
        if (secret.getData() != null) {
            secret.getData().forEach((k, v) -> creds.put(k, new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
        }
        if (secret.getStringData() != null) {
            creds.putAll(secret.getStringData());
        }
        return creds;
    }

    /** What client-go's error says: the apiserver's Status message, or why no answer came. */
    static String why(ApiException e) {
        return e.status().map(Status::getMessage).filter(m -> m != null && !m.isEmpty()).orElse(e.getMessage());
    }
}
