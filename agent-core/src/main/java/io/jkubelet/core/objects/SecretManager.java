package io.jkubelet.core.objects;

import io.fabric8.kubernetes.api.model.Secret;

/** The Secrets pods refer to (upstream {@code secret.Manager}). Thread-safe. */
public interface SecretManager {
    /**
     * @throws ObjectException {@code secret "name" not found} ({@link ObjectException#notFound()}) or why it
     *         could not be fetched
     */
    Secret getSecret(String namespace, String name) throws ObjectException;
}
