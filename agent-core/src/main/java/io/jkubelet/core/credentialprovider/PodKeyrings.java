package io.jkubelet.core.credentialprovider;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.objects.PodObjects;

/**
 * The registry credentials a pod's image pulls may try, in upstream's order ({@code MakeDockerKeyring}'s
 * {@code UnionDockerKeyring}): every match of the pod's {@code imagePullSecrets} first (on a node with an apiserver,
 * which holds them), then every match of the node's providers ({@link NodeCredentialProviders}: the node's
 * {@code config.json} and the credential provider plugins, merged into one keyring). Thread-safe.
 */
public final class PodKeyrings implements PodKeyring {
    private final PodObjects objects;
    private final PullSecrets pullSecrets;
    private final NodeCredentialProviders nodeProviders;

    public PodKeyrings(PodObjects objects, EventRecorder recorder, NodeCredentialProviders nodeProviders) {
        this.objects = objects;
        this.pullSecrets = new PullSecrets(objects.secrets(), recorder);
        this.nodeProviders = nodeProviders;
    }

    @Override
    public PullCredentials lookup(Pod pod, String image) {
        DockerKeyring secrets = objects.fromApiserver() ? pullSecrets.keyring(pod) : DockerKeyring.EMPTY;
        NodeCredentialProviders.Keyring node = nodeProviders.keyring(DockerKeyring.repoToPull(image));
        return new PullCredentials(secrets.union(node.keyring()).lookup(image), node.failures());
    }
}
