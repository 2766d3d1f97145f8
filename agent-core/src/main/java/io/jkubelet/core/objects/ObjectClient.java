package io.jkubelet.core.objects;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.jkubelet.core.apierrors.ApiException;

/**
 * The apiserver calls behind the object managers (what upstream's configmap, secret and token managers ask of
 * the clientset). Thread-safe; each get is one request, never retried.
 */
public interface ObjectClient {
    /** The ConfigMap, or null when the apiserver says it does not exist. */
    ConfigMap getConfigMap(String namespace, String name) throws ApiException;

    /** The Secret, or null when the apiserver says it does not exist. */
    Secret getSecret(String namespace, String name) throws ApiException;

    /** A watch of one ConfigMap ({@code fieldSelector=metadata.name=<name>}); the caller closes it. */
    ObjectWatch<ConfigMap> watchConfigMap(String namespace, String name);

    /** A watch of one Secret ({@code fieldSelector=metadata.name=<name>}); the caller closes it. */
    ObjectWatch<Secret> watchSecret(String namespace, String name);

    /**
     * {@code POST serviceaccounts/<name>/token}: the apiserver's answer. A real apiserver answers 404 for a missing
     * service account and 403 when the node may not ask for this pod's token (NodeRestriction).
     */
    TokenRequest createToken(String namespace, String serviceAccount, TokenRequest request) throws ApiException;
}
