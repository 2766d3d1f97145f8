package io.jkubelet.core.objects;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

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

    /**
     * TokenRequests through {@code POST serviceaccounts/<name>/token}. A real apiserver answers 404 for a missing
     * service account and 403 when the node may not ask for this pod's token (NodeRestriction).
     */
    public static TokenManager tokens(KubernetesClient client, Clock clock) {
        return new TokenManager((ns, sa, tr) -> {
            try {
                return client.serviceAccounts().inNamespace(ns).withName(sa).tokenRequest(tr);
            } catch (KubernetesClientException e) {
                String why = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                        : e.getMessage();
                throw new ObjectException(why, e.getCode() == 404);
            }
        }, clock);
    }

    /** A node with an apiserver: cached GETs of ConfigMaps and Secrets, TokenRequests for tokens, and {@code services}. */
    public static PodObjects podObjects(KubernetesClient client, Clock clock, ServiceLister services) {
        return new PodObjects(configMaps(client, clock, CachedGet.DEFAULT_TTL), secrets(client, clock, CachedGet.DEFAULT_TTL),
                tokens(client, clock), services, true);
    }

    public static Duration defaultTtl() {
        return CachedGet.DEFAULT_TTL;
    }
}
