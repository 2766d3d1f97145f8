package io.jkubelet.core.objects;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Clock;
import java.time.Duration;

/** The ConfigMap and Secret managers of a node with an apiserver: cached GETs (see {@link CachedGet}). */
public final class ApiObjectManagers {
    private ApiObjectManagers() {}

    public static ConfigMapManager configMaps(KubernetesClient client, Clock clock, Duration ttl) {
        CachedGet<ConfigMap> get = new CachedGet<>("configmap",
                (ns, name) -> client.configMaps().inNamespace(ns).withName(name).get(), clock, ttl);
        return get::get;
    }

    public static SecretManager secrets(KubernetesClient client, Clock clock, Duration ttl) {
        CachedGet<Secret> get = new CachedGet<>("secret",
                (ns, name) -> client.secrets().inNamespace(ns).withName(name).get(), clock, ttl);
        return get::get;
    }

    public static Duration defaultTtl() {
        return CachedGet.DEFAULT_TTL;
    }
}
