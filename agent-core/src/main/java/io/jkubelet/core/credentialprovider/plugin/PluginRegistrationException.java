package io.jkubelet.core.credentialprovider.plugin;

/**
 * The credential provider plugins cannot be set up (upstream {@code RegisterCredentialProviderPlugins}'s error, after
 * which the kubelet exits with {@code Failed to register CRI auth plugins}); the message is upstream's, naming the
 * file, the field or the executable.
 */
public final class PluginRegistrationException extends Exception {
    public PluginRegistrationException(String message) {
        super(message);
    }
}
