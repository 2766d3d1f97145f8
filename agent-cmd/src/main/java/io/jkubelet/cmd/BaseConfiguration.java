package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletAuthorization;
import io.jkubelet.core.apis.config.KubeletConfigDropIns;
import io.jkubelet.core.apis.config.KubeletConfigFile;
import io.jkubelet.core.apis.config.KubeletConfigLoadException;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The configuration the command line's flags are applied over, built as upstream builds it: the {@code --config}
 * file with the v1beta1 defaults (without it, the flag defaults), then the {@code --config-dir} drop-ins merged
 * over it. Stateless.
 */
final class BaseConfiguration {

    private BaseConfiguration() {
    }

    /**
     * @param configFile {@code --config}, or empty
     * @param configDir  {@code --config-dir}, or empty
     * @throws FlagsException naming the flag, the file or the drop-in and what is wrong
     */
    static KubeletConfiguration of(String configFile, String configDir) throws FlagsException {
        KubeletConfiguration base;
        if (configFile.isEmpty()) {
            KubeletConfiguration.Builder defaults = KubeletConfiguration.builder()
                    .from(KubeletConfigurationDefaults.newDefaulted());
            applyLegacyFlagDefaults(defaults);
            base = defaults.build();
        } else {
            base = load(path("--config", configFile), null);
        }
        return configDir.isEmpty() ? base : load(path("--config-dir", configDir), base);
    }

    /**
     * The defaults that flags have when no configuration file is given and that differ from the
     * v1beta1 defaults (upstream {@code applyLegacyDefaults}), kept for command-line compatibility.
     */
    static void applyLegacyFlagDefaults(KubeletConfiguration.Builder config) {
        config.authenticationBuilder().anonymousBuilder().enabled(true);
        config.authenticationBuilder().webhookBuilder().enabled(false);
        config.authorizationBuilder().mode(KubeletAuthorization.MODE_ALWAYS_ALLOW);
        config.readOnlyPort(KubeletConfigurationDefaults.KUBELET_READ_ONLY_PORT);
    }

    /** The file, or with a {@code base} the drop-ins of the directory merged over it. */
    private static KubeletConfiguration load(Path path, KubeletConfiguration base) throws FlagsException {
        try {
            return base == null ? KubeletConfigFile.load(path) : KubeletConfigDropIns.merge(base, path);
        } catch (KubeletConfigLoadException e) {
            throw new FlagsException(e.getMessage(), e);
        }
    }

    private static Path path(String flag, String value) throws FlagsException {
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw new FlagsException("invalid argument " + FlagValues.quote(value) + " for \"" + flag + "\" flag: "
                    + e.getMessage(), e);
        }
    }
}
