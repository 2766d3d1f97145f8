package io.jkubelet.core.objects;

import java.time.Clock;


/**
 * Where a pod's referenced API objects come from: ConfigMaps, Secrets, service account tokens, and the Services
 * that make its containers' service environment variables.
 * {@link #standalone()} is the null object of a node without an apiserver: every lookup fails with upstream's
 * {@code no kubeClient defined} message, and volumes that need the apiserver say so.
 *
 * @param fromApiserver false on a standalone node
 */
public record PodObjects(ConfigMapManager configMaps, SecretManager secrets, TokenManager tokens,
                         ServiceLister services, boolean fromApiserver) {

    public static PodObjects standalone() {
        return new PodObjects(
                (ns, name) -> {
                    throw new ObjectException("couldn't get configMap " + ns + "/" + name + ", no kubeClient defined", false);
                },
                (ns, name) -> {
                    throw new ObjectException("couldn't get secret " + ns + "/" + name + ", no kubeClient defined", false);
                },
                new TokenManager((ns, sa, tr) -> {
                    throw new ObjectException("cannot request a token for service account " + ns + "/" + sa
                            + ", no kubeClient defined", false);
                }, Clock.systemUTC()),
                ServiceLister.NONE, false);
    }
}
