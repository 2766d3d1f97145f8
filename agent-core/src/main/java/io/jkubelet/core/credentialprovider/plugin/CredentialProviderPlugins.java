package io.jkubelet.core.credentialprovider.plugin;

import io.jkubelet.core.config.validation.FieldError;
import io.jkubelet.core.credentialprovider.DockerConfigFiles;
import io.jkubelet.core.credentialprovider.NodeCredentialProviders;
import io.jkubelet.core.credentialprovider.NodeKeyring;
import io.jkubelet.core.credentialprovider.plugin.CredentialProviderConfig.CredentialProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sets up the plugins of {@code --image-credential-provider-config} and {@code --image-credential-provider-bin-dir}
 * as upstream's {@code RegisterCredentialProviderPlugins}: the bin dir must exist, the file must decode and validate,
 * and each provider's executable must be in the bin dir. Upstream runs this when either flag is given, so the two go
 * together: the config without the bin dir ends on the missing directory, the bin dir without the config on the empty
 * config path. Any error ends the kubelet's start ({@code Failed to register CRI auth plugins}).
 */
public final class CredentialProviderPlugins {
    private static final Logger log = LoggerFactory.getLogger(CredentialProviderPlugins.class);

    /**
     * The two flags.
     *
     * @param configFile {@code --image-credential-provider-config}, empty when not given
     * @param binDir {@code --image-credential-provider-bin-dir}, empty when not given
     */
    public record Flags(String configFile, String binDir) {
        /** Neither flag: no plugins. */
        public static final Flags NONE = new Flags("", "");

        /** Whether plugins were asked for: either flag given (upstream's test). */
        public boolean given() {
            return !configFile.isEmpty() || !binDir.isEmpty();
        }
    }

    private CredentialProviderPlugins() {}

    /**
     * The plugins by name, run with upstream's one-minute timeout; none when neither flag is given.
     *
     * @throws PluginRegistrationException with upstream's words, naming the file, the field or the executable
     */
    public static Map<String, PluginProvider> register(Flags flags, Clock clock) throws PluginRegistrationException {
        return register(flags, clock, ExecPlugin.TIMEOUT);
    }

    /**
     * The node's credential providers: its {@code config.json} and the plugins of {@code flags}, in upstream's order.
     *
     * @throws IllegalArgumentException when the plugins cannot be set up:
     *     {@code Failed to register CRI auth plugins: <upstream's error>}
     */
    public static NodeCredentialProviders nodeProviders(DockerConfigFiles.SearchPaths nodeCredentials, Flags flags,
                                                        Clock clock) {
        try {
            return new NodeCredentialProviders(NodeKeyring.of(nodeCredentials, clock), register(flags, clock));
        } catch (PluginRegistrationException | IllegalArgumentException e) {
            throw new IllegalArgumentException("Failed to register CRI auth plugins: " + e.getMessage(), e);
        }
    }

    static Map<String, PluginProvider> register(Flags flags, Clock clock, Duration timeout)
            throws PluginRegistrationException {
        if (!flags.given()) {
            return Map.of();
        }
        Path binDir = Path.of(flags.binDir());
        if (flags.binDir().isEmpty() || !Files.exists(binDir)) {
            throw new PluginRegistrationException("plugin binary directory " + flags.binDir() + " did not exist"
                    + (flags.binDir().isEmpty() ? " (--image-credential-provider-bin-dir is required with"
                            + " --image-credential-provider-config)" : ""));
        }
        CredentialProviderConfigFile.Decoded decoded;
        try {
            decoded = CredentialProviderConfigFile.read(flags.configFile());
        } catch (PluginRegistrationException e) {
            throw flags.configFile().isEmpty() ? new PluginRegistrationException(e.getMessage()
                    + " (--image-credential-provider-config is required with --image-credential-provider-bin-dir)") : e;
        }
        decoded.unknownFields().forEach(field -> log.warn("Credential provider config {}: unknown field \"{}\" is"
                + " ignored, as a v1.30 kubelet ignores it", flags.configFile(), field));
        List<FieldError> errors = CredentialProviderConfigValidation.validate(decoded.config());
        if (!errors.isEmpty()) {
            throw new PluginRegistrationException("failed to validate credential provider config " + flags.configFile()
                    + ": " + CredentialProviderConfigValidation.aggregate(errors));
        }
        Map<String, PluginProvider> plugins = new LinkedHashMap<>();
        for (CredentialProvider provider : decoded.config().providers()) {
            checkExecutable(binDir.resolve(provider.name()));
            ExecPlugin exec = new ExecPlugin(provider.name(), binDir, provider.apiVersion(), provider.args(),
                    provider.env(), timeout);
            plugins.put(provider.name(), new PluginProvider(provider.name(), provider.matchImages(),
                    provider.defaultCacheDuration(), exec, clock));
            log.info("Registered credential provider plugin {} for images {} ({})", provider.name(),
                    provider.matchImages(), provider.apiVersion());
        }
        return plugins;
    }

    /** Go's {@code exec.LookPath} of a path: a file (not a directory) with an execute bit. */
    private static void checkExecutable(Path binary) throws PluginRegistrationException {
        if (!Files.exists(binary)) {
            throw new PluginRegistrationException("plugin binary executable " + binary + " did not exist");
        }
        String why = Files.isDirectory(binary) ? "is a directory"
                : Files.isExecutable(binary) ? null : "permission denied";
        if (why != null) {
            throw new PluginRegistrationException("error inspecting binary executable " + binary + ": exec: \""
                    + binary + "\": " + why);
        }
    }
}
