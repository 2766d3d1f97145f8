package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletConfigDropIns;
import io.jkubelet.core.apis.config.KubeletConfigFile;
import io.jkubelet.core.apis.config.KubeletConfigLoadException;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The configuration the command line's flags are applied over, built as upstream builds it: the {@code --config}
 * file with the v1beta1 defaults (without it, the flags' own defaults, {@link ConfigFlagDefaults}), then the
 * {@code --config-dir} drop-ins merged over it. Stateless.
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
        KubeletConfiguration base = configFile.isEmpty() ? ConfigFlagDefaults.newKubeletConfiguration()
                : loadConfigFile(path("--config", configFile));
        return configDir.isEmpty() ? base : mergeKubeletConfigurations(base, path("--config-dir", configDir));
    }

    /** Upstream's {@code loadConfigFile}: the file, strictly decoded, with the v1beta1 defaults. */
    private static KubeletConfiguration loadConfigFile(Path file) throws FlagsException {
        try {
            return KubeletConfigFile.load(file);
        } catch (KubeletConfigLoadException e) {
            throw new FlagsException(e.getMessage(), e);
        }
    }

    /** Upstream's {@code mergeKubeletConfigurations}: the directory's drop-ins merged over {@code base}. */
    private static KubeletConfiguration mergeKubeletConfigurations(KubeletConfiguration base, Path dir)
            throws FlagsException {
        try {
            return KubeletConfigDropIns.merge(base, dir);
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
