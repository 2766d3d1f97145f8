package io.jkubelet.cmd;

import io.jkubelet.core.apis.config.KubeletAuthorization;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.KubeletConfigurationDefaults;

/**
 * The configuration the flags of configuration fields start from (upstream {@code options.NewKubeletConfiguration}):
 * the v1beta1 defaults ({@link KubeletConfigurationDefaults}) with the legacy flag defaults over them. It is what the
 * agent runs with when no {@code --config} is given, and what {@code --help} shows as each flag's default.
 */
final class ConfigFlagDefaults {

    private ConfigFlagDefaults() {
    }

    /** The v1beta1 defaults with {@link #applyLegacyDefaults}. */
    static KubeletConfiguration newKubeletConfiguration() {
        KubeletConfiguration.Builder defaults = KubeletConfiguration.builder()
                .from(KubeletConfigurationDefaults.newDefaulted());
        applyLegacyDefaults(defaults);
        return defaults.build();
    }

    /**
     * The defaults that flags have when no configuration file is given and that differ from the
     * v1beta1 defaults (upstream {@code applyLegacyDefaults}), kept for command-line compatibility.
     */
    static void applyLegacyDefaults(KubeletConfiguration.Builder config) {
        config.authenticationBuilder().anonymousBuilder().enabled(true);
        config.authenticationBuilder().webhookBuilder().enabled(false);
        config.authorizationBuilder().mode(KubeletAuthorization.MODE_ALWAYS_ALLOW);
        config.readOnlyPort(KubeletConfigurationDefaults.KUBELET_READ_ONLY_PORT);
    }
}
