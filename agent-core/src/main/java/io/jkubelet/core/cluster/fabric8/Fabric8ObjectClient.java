package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.core.objects.ObjectClient;
import io.jkubelet.core.objects.ObjectWatch;
import io.jkubelet.core.objects.PersistentVolumeClient;

/** The object managers' and the volume manager's calls on fabric8's client. */
public final class Fabric8ObjectClient implements ObjectClient, PersistentVolumeClient {
    private final KubernetesClient client;

    public Fabric8ObjectClient(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public ConfigMap getConfigMap(String namespace, String name) {
        return Fabric8Errors.call(() -> client.configMaps().inNamespace(namespace).withName(name).get());
    }

    @Override
    public Secret getSecret(String namespace, String name) {
        return Fabric8Errors.call(() -> client.secrets().inNamespace(namespace).withName(name).get());
    }

    @Override
    public ObjectWatch<ConfigMap> watchConfigMap(String namespace, String name) {
        return new Fabric8ObjectWatch<>(client.configMaps().inNamespace(namespace).withName(name).runnableInformer(0));
    }

    @Override
    public ObjectWatch<Secret> watchSecret(String namespace, String name) {
        return new Fabric8ObjectWatch<>(client.secrets().inNamespace(namespace).withName(name).runnableInformer(0));
    }

    @Override
    public TokenRequest createToken(String namespace, String serviceAccount, TokenRequest request) {
        return Fabric8Errors.call(() -> client.serviceAccounts().inNamespace(namespace).withName(serviceAccount)
                .tokenRequest(request));
    }

    @Override
    public PersistentVolumeClaim getPersistentVolumeClaim(String namespace, String name) {
        return Fabric8Errors.call(() -> client.persistentVolumeClaims().inNamespace(namespace).withName(name).get());
    }

    @Override
    public PersistentVolume getPersistentVolume(String name) {
        return Fabric8Errors.call(() -> client.persistentVolumes().withName(name).get());
    }

    /** One request, as client-go's {@code Patch(..., "status")}: fabric8's patch DSL would read the claim first. */
    @Override
    public PersistentVolumeClaim patchPersistentVolumeClaimStatus(String namespace, String name, String patch) {
        return ApiRequests.patch(client, "/api/v1/namespaces/" + ApiRequests.encode(namespace) + "/persistentvolumeclaims/"
                + ApiRequests.encode(name) + "/status", ApiRequests.MERGE_PATCH, patch,
                PersistentVolumeClaim.class);
    }
}
