package io.jkubelet.core.cluster.fabric8;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jkubelet.core.volume.csi.CsiObjects;

/** The CSI volume plugin's objects on fabric8's client ({@code storage.k8s.io/v1} CSIDrivers and VolumeAttachments, Secrets). */
public final class Fabric8CsiObjects implements CsiObjects {
    private final KubernetesClient client;

    public Fabric8CsiObjects(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public CSIDriver getCsiDriver(String name) {
        return Fabric8Errors.call(() -> client.storage().v1().csiDrivers().withName(name).get());
    }

    @Override
    public VolumeAttachment getVolumeAttachment(String name) {
        return Fabric8Errors.call(() -> client.storage().v1().volumeAttachments().withName(name).get());
    }

    @Override
    public Secret getSecret(String namespace, String name) {
        return Fabric8Errors.call(() -> client.secrets().inNamespace(namespace).withName(name).get());
    }
}
