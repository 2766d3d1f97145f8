package io.jkubelet.core.credentialprovider;

import io.fabric8.kubernetes.api.model.Pod;
import io.jkubelet.core.events.EventRecorder;
import io.jkubelet.core.objects.PodObjects;

import java.time.Clock;
import java.util.function.Function;

/**
 * The registry credentials a pod's image pulls may use, in upstream's order ({@code MakeDockerKeyring}'s union): the
 * pod's {@code imagePullSecrets} first (on a node with an apiserver, which holds them), then the node's own
 * {@code config.json} and {@code .dockercfg}. Thread-safe.
 */
public final class PodKeyrings implements Function<Pod, DockerKeyring> {
    private final PodObjects objects;
    private final PullSecrets pullSecrets;
    private final NodeKeyring nodeKeyring;

    public PodKeyrings(PodObjects objects, EventRecorder recorder, DockerConfigFiles.SearchPaths nodeCredentials,
                       Clock clock) {
        this.objects = objects;
        this.pullSecrets = new PullSecrets(objects.secrets(), recorder);
        this.nodeKeyring = NodeKeyring.of(nodeCredentials, clock);
    }

    @Override
    public DockerKeyring apply(Pod pod) {
        return (objects.fromApiserver() ? pullSecrets.keyring(pod) : DockerKeyring.EMPTY).union(nodeKeyring.get());
    }
}
