package io.jkubelet.core.kuberuntime;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.events.References;
import io.jkubelet.core.objects.ObjectException;
import io.jkubelet.core.objects.PodObjects;
import io.jkubelet.core.volume.ApiVolumes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The env of a container that comes from ConfigMaps and Secrets (upstream {@code makeEnvironmentVariables}):
 * {@code envFrom} with its prefix, {@code configMapKeyRef} and {@code secretKeyRef}. A missing object or key that
 * is not {@code optional} fails the container's config ({@code CreateContainerConfigError}) with upstream's message,
 * and the next pod sync tries again; an optional one is left out of the env.
 */
final class EnvRefs {
    /** The API's (relaxed) env var name rule: printable ASCII except '='. */
    private static final Pattern ENV_VAR_NAME = Pattern.compile("[\\x20-\\x7e&&[^=]]+");

    private final PodObjects objects;
    private final EventRecorder recorder;

    EnvRefs(PodObjects objects, EventRecorder recorder) {
        this.objects = objects;
        this.recorder = recorder;
    }

    /** Adds the variables of every {@code envFrom} source to {@code env}, in order, later ones winning. */
    void envFrom(Pod pod, Container c, Map<String, String> env) throws ContainerConfigFactory.ConfigException {
        if (c.getEnvFrom() == null) {
            return;
        }
        String ns = pod.getMetadata().getNamespace();
        for (EnvFromSource ef : c.getEnvFrom()) {
            String prefix = ef.getPrefix() == null ? "" : ef.getPrefix();
            Map<String, String> values = new LinkedHashMap<>();
            String kind;
            String name;
            if (ef.getConfigMapRef() != null) {
                kind = "configMap";
                name = ef.getConfigMapRef().getName();
                ConfigMap cm = get(() -> objects.configMaps().getConfigMap(ns, name),
                        Boolean.TRUE.equals(ef.getConfigMapRef().getOptional()));
                if (cm == null || cm.getData() == null) {
                    continue;
                }
                values.putAll(cm.getData());
            } else if (ef.getSecretRef() != null) {
                kind = "secret";
                name = ef.getSecretRef().getName();
                Secret s = get(() -> objects.secrets().getSecret(ns, name), Boolean.TRUE.equals(ef.getSecretRef().getOptional()));
                if (s == null) {
                    continue;
                }
                ApiVolumes.secretData(s).forEach((k, v) -> values.put(k, new String(v, StandardCharsets.UTF_8)));
            } else {
                continue;
            }
            List<String> invalid = new ArrayList<>();
            values.forEach((k, v) -> {
                String key = prefix + k;
                if (ENV_VAR_NAME.matcher(key).matches()) {
                    env.put(key, v);
                } else {
                    invalid.add(key);
                }
            });
            if (!invalid.isEmpty()) {
                invalid.sort(null);
                recorder.event(References.pod(pod), EventRecorder.WARNING, "InvalidEnvironmentVariableNames",
                        "Keys [" + String.join(", ", invalid) + "] from the EnvFrom " + kind + " " + ns + "/" + name
                                + " were skipped since they are considered invalid environment variable names.");
            }
        }
    }

    /** The value, or null when an optional reference is missing. */
    String configMapKey(Pod pod, ConfigMapKeySelector ref) throws ContainerConfigFactory.ConfigException {
        String ns = pod.getMetadata().getNamespace();
        boolean optional = Boolean.TRUE.equals(ref.getOptional());
        if (!objects.fromApiserver() && optional) {
            return ""; // a standalone node has always given optional references an empty value
        }
        ConfigMap cm = get(() -> objects.configMaps().getConfigMap(ns, ref.getName()), optional);
        if (cm == null) {
            return null;
        }
        String v = cm.getData() == null ? null : cm.getData().get(ref.getKey());
        if (v == null) {
            if (optional) {
                return null;
            }
            throw new ContainerConfigFactory.ConfigException("couldn't find key " + ref.getKey() + " in ConfigMap "
                    + ns + "/" + ref.getName());
        }
        return v;
    }

    /** The value, or null when an optional reference is missing. */
    String secretKey(Pod pod, SecretKeySelector ref) throws ContainerConfigFactory.ConfigException {
        String ns = pod.getMetadata().getNamespace();
        boolean optional = Boolean.TRUE.equals(ref.getOptional());
        if (!objects.fromApiserver() && optional) {
            return "";
        }
        Secret s = get(() -> objects.secrets().getSecret(ns, ref.getName()), optional);
        if (s == null) {
            return null;
        }
        byte[] v = ApiVolumes.secretData(s).get(ref.getKey());
        if (v == null) {
            if (optional) {
                return null;
            }
            throw new ContainerConfigFactory.ConfigException("couldn't find key " + ref.getKey() + " in Secret "
                    + ns + "/" + ref.getName());
        }
        return new String(v, StandardCharsets.UTF_8);
    }

    private interface Lookup<T> {
        T get() throws ObjectException;
    }

    /** The object; null when it does not exist and the reference is optional. */
    private static <T> T get(Lookup<T> lookup, boolean optional) throws ContainerConfigFactory.ConfigException {
        try {
            return lookup.get();
        } catch (ObjectException e) {
            if (e.notFound() && optional) {
                return null;
            }
            throw new ContainerConfigFactory.ConfigException(e.getMessage());
        }
    }
}
