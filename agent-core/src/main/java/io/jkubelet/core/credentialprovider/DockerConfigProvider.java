package io.jkubelet.core.credentialprovider;

/**
 * One source of the node's registry credentials, asked at every pull that looks for credentials (upstream
 * {@code DockerConfigProvider}): the node's {@code config.json} ({@link NodeKeyring}) or a credential provider plugin.
 * Implementations are thread-safe and never throw: what keeps them from giving credentials is in the result.
 */
@FunctionalInterface
public interface DockerConfigProvider {
    /**
     * @param image the repository to pull, normalized as upstream's {@code repoToPull}
     *     ({@code docker.io/library/busybox}, {@code 127.0.0.1:5000/team/app}; no tag, no digest)
     */
    ProvidedCredentials provide(String image);
}
