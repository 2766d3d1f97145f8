package io.jkubelet.core.credentialprovider.plugin;

import java.time.Duration;
import java.util.List;

/**
 * The file given with {@code --image-credential-provider-config} (upstream's internal
 * {@code kubelet.config.k8s.io} {@code CredentialProviderConfig}, which {@code v1}, {@code v1beta1} and
 * {@code v1alpha1} all decode to: v1.30's three versions have the same fields). Read by
 * {@link CredentialProviderConfigFile}, checked by {@link CredentialProviderConfigValidation}.
 *
 * @param providers the plugins, in the file's order
 */
public record CredentialProviderConfig(List<CredentialProvider> providers) {
    public CredentialProviderConfig {
        providers = List.copyOf(providers);
    }

    /**
     * One plugin.
     *
     * @param name the plugin's executable in the bin dir, and its name in logs and errors
     * @param matchImages the images it is asked for ({@code *.dkr.ecr.*.amazonaws.com}, {@code registry.io:5000/team}):
     *     globs in the host, a port that must be equal, a path prefix
     * @param defaultCacheDuration how long its answer is kept when the answer says nothing; null when the file gave
     *     none (which validation refuses)
     * @param apiVersion the {@code credentialprovider.kubelet.k8s.io} version of its request and response
     * @param args its arguments
     * @param env variables added to the kubelet's own environment for it
     */
    public record CredentialProvider(String name, List<String> matchImages, Duration defaultCacheDuration,
                                     String apiVersion, List<String> args, List<ExecEnvVar> env) {
        public CredentialProvider {
            matchImages = List.copyOf(matchImages);
            args = List.copyOf(args);
            env = List.copyOf(env);
        }
    }

    /** One environment variable of a plugin. */
    public record ExecEnvVar(String name, String value) {}
}
