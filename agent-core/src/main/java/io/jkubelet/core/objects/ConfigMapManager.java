package io.jkubelet.core.objects;

import io.fabric8.kubernetes.api.model.ConfigMap;

/** The ConfigMaps pods refer to (upstream {@code configmap.Manager}). Thread-safe. */
public interface ConfigMapManager {
    /**
     * @throws ObjectException {@code configmap "name" not found} ({@link ObjectException#notFound()}) or why it
     *         could not be fetched
     */
    ConfigMap getConfigMap(String namespace, String name) throws ObjectException;
}
