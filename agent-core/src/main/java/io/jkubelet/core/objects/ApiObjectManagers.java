package io.jkubelet.core.objects;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Status;
import io.jkubelet.core.apierrors.ApiException;

import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The ConfigMap and Secret managers of a node with an apiserver, by {@link ChangeDetectionStrategy}: a watch per object
 * ({@code Watch}, see {@link WatchedGet}), GETs cached for a TTL ({@code Cache}, see {@link CachedGet}) or a GET at
 * every use ({@code Get}).
 */
public final class ApiObjectManagers {
    private ApiObjectManagers() {}

    public static ConfigMapManager configMaps(ObjectClient api, Clock clock, Duration ttl) {
        CachedGet<ConfigMap> get = new CachedGet<>("configmap", api::getConfigMap, clock, ttl);
        return get::get;
    }

    public static SecretManager secrets(ObjectClient api, Clock clock, Duration ttl) {
        CachedGet<Secret> get = new CachedGet<>("secret", api::getSecret, clock, ttl);
        return get::get;
    }

    /**
     * TokenRequests through the apiserver; the reason a refused one fails with is the apiserver's own message
     * (a missing service account is the NotFound an {@code optional} reference tolerates).
     */
    public static TokenManager tokens(ObjectClient api, Clock clock) {
        return new TokenManager((ns, sa, tr) -> {
            try {
                return api.createToken(ns, sa, tr);
            } catch (ApiException e) {
                String why = e.status().map(Status::getMessage).orElse(e.getMessage());
                throw new ObjectException(why, e.code() == 404);
            }
        }, clock);
    }

    /** A node with an apiserver: cached GETs of ConfigMaps and Secrets, TokenRequests for tokens, and {@code services}. */
    public static PodObjects podObjects(ObjectClient api, Clock clock, ServiceLister services) {
        return podObjects(api, clock, services, ChangeDetectionStrategy.CACHE, Duration.ofMinutes(1), closer -> { });
    }

    /**
     * As {@link #podObjects(ObjectClient, Clock, ServiceLister)}, with ConfigMaps and Secrets read by {@code strategy}.
     *
     * @param resyncInterval {@code syncFrequency}: the Watch strategy stops a watch unused for five of them
     * @param owner takes the watches' closer, to close when the node stops
     */
    public static PodObjects podObjects(ObjectClient api, Clock clock, ServiceLister services,
            ChangeDetectionStrategy strategy, Duration resyncInterval, Consumer<AutoCloseable> owner) {
        if (strategy == ChangeDetectionStrategy.WATCH) {
            Duration maxIdle = resyncInterval.multipliedBy(5);
            WatchedGet<ConfigMap> configMaps = new WatchedGet<>("configmap", api::watchConfigMap, clock, maxIdle);
            WatchedGet<Secret> secrets = new WatchedGet<>("secret", api::watchSecret, clock, maxIdle);
            owner.accept(configMaps);
            owner.accept(secrets);
            return new PodObjects(configMaps::get, secrets::get, tokens(api, clock), services, true);
        }
        // Get: upstream's simple managers, a GET at every use; a zero TTL keeps nothing.
        Duration ttl = strategy == ChangeDetectionStrategy.GET ? Duration.ZERO : CachedGet.DEFAULT_TTL;
        return new PodObjects(configMaps(api, clock, ttl), secrets(api, clock, ttl), tokens(api, clock), services, true);
    }

    public static Duration defaultTtl() {
        return CachedGet.DEFAULT_TTL;
    }
}
