package io.jkubelet.core.volume;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.DownwardAPIVolumeFile;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccountTokenProjection;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.jkubelet.core.objects.ObjectException;
import io.jkubelet.core.objects.PodObjects;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The files of the volumes that come from the apiserver or the pod itself: {@code configMap}, {@code secret},
 * {@code downwardAPI} and {@code projected} (upstream {@code pkg/volume/configmap}, {@code secret}, {@code downwardapi},
 * {@code projected} payloads, which their plugins, {@link ApiVolumePlugin}, hand to the {@link AtomicWriter}: each SetUp
 * builds the payload afresh, so that running it again after an object changed updates the files in place and containers
 * see the new content without a restart). Thread-safe.
 */
public final class ApiVolumes {
    /** The API's default {@code defaultMode} of all four volume types. */
    static final int DEFAULT_MODE = 0644;
    /** The API's default {@code expirationSeconds} of a serviceAccountToken projection. */
    static final long DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;

    private final PodObjects objects;
    private final String nodeName;
    private final Supplier<List<String>> hostIps;
    private final Clock clock;
    private final Supplier<Map<String, Quantity>> allocatable;

    public ApiVolumes(PodObjects objects, String nodeName, Supplier<List<String>> hostIps, Clock clock) {
        this(objects, nodeName, hostIps, Map::of, clock);
    }

    /** @param allocatable the node's allocatable, which downward API limits a container does not set default to */
    public ApiVolumes(PodObjects objects, String nodeName, Supplier<List<String>> hostIps,
            Supplier<Map<String, Quantity>> allocatable, Clock clock) {
        this.objects = objects;
        this.nodeName = nodeName;
        this.hostIps = hostIps;
        this.allocatable = allocatable;
        this.clock = clock;
    }

    /** Whether the volume is one of the four. */
    public static boolean handles(Volume v) {
        return v.getConfigMap() != null || v.getSecret() != null || v.getDownwardAPI() != null || v.getProjected() != null;
    }

    /** Drops what is kept for a pod that is gone: its service account tokens. */
    public void forgetPod(String uid) {
        objects.tokens().deletePodTokens(uid);
    }

    public boolean fromApiserver() {
        return objects.fromApiserver();
    }

    Clock clock() {
        return clock;
    }

    /**
     * The volume's files, read afresh from the objects and the pod.
     *
     * @param args the pod's {@code fsGroup} and its containers' one user, either of which makes a projected service
     *     account token {@code 0600} (the group's read is added when the volume is given to it); the token is given to
     *     the user
     * @throws VolumeException {@code configmap "y" not found} and the like
     */
    Map<String, FileProjection> payload(Pod pod, Volume v, MounterArgs args) throws VolumeException {
        try {
            if (v.getConfigMap() != null) {
                var src = v.getConfigMap();
                return configMapPayload(pod, src.getName(), src.getItems(), mode(src.getDefaultMode()),
                        Boolean.TRUE.equals(src.getOptional()));
            } else if (v.getSecret() != null) {
                var src = v.getSecret();
                return secretPayload(pod, src.getSecretName(), src.getItems(), mode(src.getDefaultMode()),
                        Boolean.TRUE.equals(src.getOptional()));
            } else if (v.getDownwardAPI() != null) {
                return downwardPayload(pod, v.getDownwardAPI().getItems(), mode(v.getDownwardAPI().getDefaultMode()));
            }
            return projectedPayload(pod, v.getProjected().getSources(), mode(v.getProjected().getDefaultMode()), args);
        } catch (ObjectException | IllegalArgumentException e) {
            throw new VolumeException(e.getMessage());
        }
    }

    private static int mode(Integer m) {
        return m == null ? DEFAULT_MODE : m;
    }

    private Map<String, FileProjection> configMapPayload(Pod pod, String name, List<KeyToPath> items, int defaultMode,
                                                         boolean optional) throws ObjectException {
        ConfigMap cm;
        try {
            cm = objects.configMaps().getConfigMap(pod.getMetadata().getNamespace(), name);
        } catch (ObjectException e) {
            if (e.notFound() && optional) {
                return Map.of();
            }
            throw e;
        }
        Map<String, byte[]> data = new LinkedHashMap<>();
        if (cm.getData() != null) {
            cm.getData().forEach((k, val) -> data.put(k, val.getBytes(StandardCharsets.UTF_8)));
        }
        if (cm.getBinaryData() != null) {
            cm.getBinaryData().forEach((k, val) -> data.put(k, Base64.getDecoder().decode(val)));
        }
        return project(data, items, defaultMode, optional, "configmap references non-existent config key: ");
    }

    private Map<String, FileProjection> secretPayload(Pod pod, String name, List<KeyToPath> items, int defaultMode,
                                                      boolean optional) throws ObjectException {
        Secret s;
        try {
            s = objects.secrets().getSecret(pod.getMetadata().getNamespace(), name);
        } catch (ObjectException e) {
            if (e.notFound() && optional) {
                return Map.of();
            }
            throw e;
        }
        return project(secretData(s), items, defaultMode, optional, "references non-existent secret key: ");
    }

    /** A Secret's values, decoded from the API's base64. */
    public static Map<String, byte[]> secretData(Secret s) {
        Map<String, byte[]> data = new LinkedHashMap<>();
        if (s.getData() != null) {
            s.getData().forEach((k, val) -> data.put(k, Base64.getDecoder().decode(val)));
        }
        return data;
    }

    /** All keys when there are no items, else each item's key at its path (upstream {@code MakePayload}). */
    private static Map<String, FileProjection> project(Map<String, byte[]> data, List<KeyToPath> items, int defaultMode,
                                                       boolean optional, String missingKey) throws ObjectException {
        Map<String, FileProjection> payload = new LinkedHashMap<>();
        if (items == null || items.isEmpty()) {
            data.forEach((k, val) -> payload.put(k, new FileProjection(val, defaultMode)));
            return payload;
        }
        for (KeyToPath item : items) {
            byte[] val = data.get(item.getKey());
            if (val == null) {
                if (optional) {
                    continue;
                }
                throw new ObjectException(missingKey + item.getKey(), false);
            }
            payload.put(item.getPath(), new FileProjection(val, item.getMode() == null ? defaultMode : item.getMode()));
        }
        return payload;
    }

    private Map<String, FileProjection> downwardPayload(Pod pod, List<DownwardAPIVolumeFile> items, int defaultMode) {
        Map<String, FileProjection> payload = new LinkedHashMap<>();
        if (items == null) {
            return payload;
        }
        List<String> errors = new ArrayList<>();
        for (DownwardAPIVolumeFile f : items) {
            String value;
            try {
                if (f.getFieldRef() != null) {
                    value = DownwardApi.fieldValue(pod, f.getFieldRef().getFieldPath(), nodeName, hostIps.get());
                } else if (f.getResourceFieldRef() != null) {
                    value = DownwardApi.resourceValue(pod, f.getResourceFieldRef(), allocatable.get());
                } else {
                    continue;
                }
            } catch (IllegalArgumentException e) {
                errors.add("unable to get value of downward API item \"" + f.getPath() + "\": " + e.getMessage());
                continue;
            }
            payload.put(f.getPath(), new FileProjection(value.getBytes(StandardCharsets.UTF_8),
                    f.getMode() == null ? defaultMode : f.getMode()));
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", errors));
        }
        return payload;
    }

    private Map<String, FileProjection> projectedPayload(Pod pod, List<VolumeProjection> sources, int defaultMode,
                                                         MounterArgs args) throws ObjectException {
        Map<String, FileProjection> payload = new LinkedHashMap<>();
        if (sources == null) {
            return payload;
        }
        List<String> errors = new ArrayList<>();
        for (VolumeProjection src : sources) {
            try {
                if (src.getConfigMap() != null) {
                    var cm = src.getConfigMap();
                    payload.putAll(configMapPayload(pod, cm.getName(), cm.getItems(), defaultMode,
                            Boolean.TRUE.equals(cm.getOptional())));
                } else if (src.getSecret() != null) {
                    var s = src.getSecret();
                    payload.putAll(secretPayload(pod, s.getName(), s.getItems(), defaultMode,
                            Boolean.TRUE.equals(s.getOptional())));
                } else if (src.getDownwardAPI() != null) {
                    payload.putAll(downwardPayload(pod, src.getDownwardAPI().getItems(), defaultMode));
                } else if (src.getServiceAccountToken() != null) {
                    ServiceAccountTokenProjection t = src.getServiceAccountToken();
                    // Upstream's: for a user or a group of the pod the token is the owner's alone, the group's read
                    // coming from the ownership change (0640), never the world's.
                    int mode = args.fsUser() != null || args.fsGroup() != null ? 0600 : defaultMode;
                    payload.put(t.getPath(), new FileProjection(token(pod, t).getBytes(StandardCharsets.UTF_8), mode,
                            args.fsUser()));
                } else {
                    errors.add("unsupported projected volume source");
                }
            } catch (ObjectException | IllegalArgumentException e) {
                // As upstream: collect every source's error, so one message says all that is wrong.
                errors.add(e.getMessage());
            }
        }
        if (!errors.isEmpty()) {
            throw new ObjectException(String.join(", ", errors), false);
        }
        return payload;
    }

    private String token(Pod pod, ServiceAccountTokenProjection t) throws ObjectException {
        String sa = pod.getSpec().getServiceAccountName();
        if (sa == null || sa.isEmpty()) {
            sa = "default";
        }
        List<String> audiences = t.getAudience() == null || t.getAudience().isEmpty() ? List.of() : List.of(t.getAudience());
        long exp = t.getExpirationSeconds() == null ? DEFAULT_TOKEN_EXPIRATION_SECONDS : t.getExpirationSeconds();
        return objects.tokens().getServiceAccountToken(pod.getMetadata().getNamespace(), sa, audiences, exp,
                pod.getMetadata().getName(), pod.getMetadata().getUid());
    }
}
