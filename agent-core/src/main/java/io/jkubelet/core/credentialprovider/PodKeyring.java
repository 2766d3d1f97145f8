package io.jkubelet.core.credentialprovider;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.function.Function;

/** The credentials a pod's pull of an image may try. Implementations are thread-safe. */
@FunctionalInterface
public interface PodKeyring {
    /** No credentials: every pull is anonymous. */
    PodKeyring NONE = of(pod -> DockerKeyring.EMPTY);

    /**
     * Asked only when a pull is needed: credential provider plugins run here.
     *
     * @param image the image as the container names it
     */
    PullCredentials lookup(Pod pod, String image);

    /** A keyring per pod with no credential providers behind it. */
    static PodKeyring of(Function<Pod, DockerKeyring> keyrings) {
        return (pod, image) -> new PullCredentials(keyrings.apply(pod).lookup(image), List.of());
    }
}
