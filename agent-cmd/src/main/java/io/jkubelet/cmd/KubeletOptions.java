package io.jkubelet.cmd;

import io.jkubelet.cmd.FlagValues.BadValue;
import io.jkubelet.core.credentialprovider.plugin.CredentialProviderPlugins;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.apis.config.InvalidKubeletConfigurationException;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.KubeletConfigurationValidator;
import io.jkubelet.core.cm.QosReserved;
import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.eviction.EvictionConfig;
import io.jkubelet.core.eviction.ThresholdParser;
import io.jkubelet.core.objects.ChangeDetectionStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.jkubelet.cmd.KubeletFlagSpecs.BOOTSTRAP_KUBECONFIG;
import static io.jkubelet.cmd.KubeletFlagSpecs.CADVISOR_PORT;
import static io.jkubelet.cmd.KubeletFlagSpecs.IMAGE_CREDENTIAL_PROVIDER_BIN_DIR;
import static io.jkubelet.cmd.KubeletFlagSpecs.IMAGE_CREDENTIAL_PROVIDER_CONFIG;
import static io.jkubelet.cmd.KubeletFlagSpecs.CERT_DIR;
import static io.jkubelet.cmd.KubeletFlagSpecs.CONFIG;
import static io.jkubelet.cmd.KubeletFlagSpecs.CONFIG_DIR;
import static io.jkubelet.cmd.KubeletFlagSpecs.CONTAINER_LOGS_DIR;
import static io.jkubelet.cmd.KubeletFlagSpecs.HOSTNAME_OVERRIDE;
import static io.jkubelet.cmd.KubeletFlagSpecs.KUBECONFIG;
import static io.jkubelet.cmd.KubeletFlagSpecs.MAX_DEAD_CONTAINERS;
import static io.jkubelet.cmd.KubeletFlagSpecs.MAX_DEAD_PER_CONTAINER;
import static io.jkubelet.cmd.KubeletFlagSpecs.MINIMUM_CONTAINER_TTL;
import static io.jkubelet.cmd.KubeletFlagSpecs.NODE_IP;
import static io.jkubelet.cmd.KubeletFlagSpecs.NODE_LABELS;
import static io.jkubelet.cmd.KubeletFlagSpecs.POD_INFRA_CONTAINER_IMAGE;
import static io.jkubelet.cmd.KubeletFlagSpecs.ROOT_DIR;

/**
 * From the flags given to the {@link KubeletServer} the agent runs, in upstream's order ({@code NewKubeletCommand}):
 * every flag value checked first, then {@code loadConfigFile} (or the flags' own defaults) and the {@code --config-dir}
 * drop-ins ({@link BaseConfiguration}), the flags given on the command line over both
 * ({@code kubeletConfigFlagPrecedence}), the feature gates ({@code SetFromMap}), validation (upstream's, then what
 * jkubelet refuses), and what upstream parses at start and refuses to start with (eviction thresholds, the
 * configmap and secret strategy, {@code qosReserved}, the node labels). Stateless.
 */
final class KubeletOptions {

    private KubeletOptions() {
    }

    /**
     * @return the server to start, with pflag's warnings (deprecated flags used) and the feature gates' warnings
     * @throws FlagsException for every bad input, with a message naming the flag, file or field
     */
    static KubeletInvocation.Run kubeletServer(GivenFlags given) throws FlagsException {
        // Bad flag values are reported before the file is read, as the kubelet parses all flags first.
        applyConfigFlags(given, KubeletConfiguration.builder());

        KubeletConfiguration config = kubeletConfigFlagPrecedence(
                BaseConfiguration.of(given.last(CONFIG), given.last(CONFIG_DIR)), given);
        List<String> gateWarnings = setFeatureGates(config);
        validate(config);
        config = ReservedCpus.apply(config, ReservedCpus.online());
        KubeletFlags flags = kubeletFlags(given, config);
        ChangeDetectionStrategy changeDetectionStrategy = changeDetectionStrategy(config);
        qosReserved(config);
        List<String> warnings = new ArrayList<>(deprecationWarnings(given));
        warnings.addAll(gateWarnings);
        return new KubeletInvocation.Run(new KubeletServer(flags, config, eviction(config),
                changeDetectionStrategy), warnings);
    }

    /**
     * The flags on the command line win over the file and the drop-ins, as upstream re-parses them last. Built once:
     * the running kubelet gets an immutable configuration.
     */
    private static KubeletConfiguration kubeletConfigFlagPrecedence(KubeletConfiguration base, GivenFlags given)
            throws FlagsException {
        KubeletConfiguration.Builder builder = KubeletConfiguration.builder().from(base);
        applyConfigFlags(given, builder);
        return builder.build();
    }

    private static void applyConfigFlags(GivenFlags given, KubeletConfiguration.Builder config) throws FlagsException {
        for (ConfigFlag flag : ConfigFlags.ALL) {
            List<String> values = given.values(flag.spec());
            for (int i = 0; i < values.size(); i++) {
                String value = values.get(i);
                try {
                    flag.setter().set(config, value, values.subList(0, i));
                } catch (BadValue e) {
                    throw flag.spec().invalidArgument(value, e);
                }
            }
        }
    }

    /**
     * The feature gates of the file, the drop-ins and {@code --feature-gates} together, checked as upstream's
     * {@code SetFromMap} checks them before the configuration is validated; returns its warnings (GA and deprecated
     * gates set).
     */
    private static List<String> setFeatureGates(KubeletConfiguration config) throws FlagsException {
        try {
            return FeatureGates.check(config.featureGates());
        } catch (IllegalArgumentException e) {
            throw new FlagsException("failed to set feature gates from initial flags-based config: " + e.getMessage(), e);
        }
    }

    /** Upstream's validation, then what jkubelet refuses to start with ({@link UnsupportedSettings#refusals}). */
    private static void validate(KubeletConfiguration config) throws FlagsException {
        List<String> errors = new ArrayList<>(KubeletConfigurationValidator.validate(config));
        if (errors.isEmpty()) {
            errors.addAll(UnsupportedSettings.refusals(config));
        }
        if (!errors.isEmpty()) {
            InvalidKubeletConfigurationException e = new InvalidKubeletConfigurationException(errors);
            throw new FlagsException(e.getMessage(), e);
        }
    }

    /** The settings that stay flags, with upstream's {@code ValidateKubeletFlags} of the node labels. */
    private static KubeletFlags kubeletFlags(GivenFlags given, KubeletConfiguration config) throws FlagsException {
        return new KubeletFlags(
                given.last(CONFIG),
                given.last(KUBECONFIG),
                given.last(BOOTSTRAP_KUBECONFIG),
                given.last(HOSTNAME_OVERRIDE),
                String.join(",", NodeIps.parse(given.last(NODE_IP))),
                given.last(ROOT_DIR),
                given.last(CERT_DIR),
                nodeLabels(given),
                given.last(CONTAINER_LOGS_DIR),
                given.last(POD_INFRA_CONTAINER_IMAGE),
                containerGcPolicy(given),
                config.logging().verbosity(),
                cadvisorPort(given),
                given.given("address") ? config.address() : KubeletFlags.DEFAULT_CADVISOR_ADDRESS,
                new CredentialProviderPlugins.Flags(given.last(IMAGE_CREDENTIAL_PROVIDER_CONFIG),
                        given.last(IMAGE_CREDENTIAL_PROVIDER_BIN_DIR)));
    }

    /**
     * The eviction thresholds of the configuration (upstream {@code ParseThresholdConfig}, which fails the kubelet's
     * start): a bad one is refused before anything runs, naming its field and flag.
     */
    static EvictionConfig eviction(KubeletConfiguration config) throws FlagsException {
        try {
            return new EvictionConfig(ThresholdParser.parseThresholdConfig(config.enforceNodeAllocatable(),
                    config.evictionHard(), config.evictionSoft(), config.evictionSoftGracePeriod(),
                    config.evictionMinimumReclaim()), config.evictionPressureTransitionPeriod(),
                    config.evictionMaxPodGracePeriod(), !Boolean.FALSE.equals(config.localStorageCapacityIsolation()));
        } catch (IllegalArgumentException e) {
            throw new FlagsException(e.getMessage(), e);
        }
    }

    /** {@code configMapAndSecretChangeDetectionStrategy}: an unknown one ends the kubelet as upstream's NewMainKubelet. */
    private static ChangeDetectionStrategy changeDetectionStrategy(KubeletConfiguration config) throws FlagsException {
        try {
            return ChangeDetectionStrategy.of(config.configMapAndSecretChangeDetectionStrategy());
        } catch (IllegalArgumentException e) {
            throw new FlagsException(e.getMessage(), e);
        }
    }

    /** {@code qosReserved}, parsed at start as upstream parses it whatever its gate says ({@link QosReserved}). */
    private static void qosReserved(KubeletConfiguration config) throws FlagsException {
        try {
            QosReserved.parse(config.qosReserved());
        } catch (IllegalArgumentException e) {
            throw new FlagsException(e.getMessage(), e);
        }
    }

    /** The deprecated container GC flags, with upstream's defaults: no minimum age, one per container, no node limit. */
    private static GCPolicy containerGcPolicy(GivenFlags given) throws FlagsException {
        Duration minAge = given.parse(MINIMUM_CONTAINER_TTL, FlagValues::duration);
        int perContainer = given.parse(MAX_DEAD_PER_CONTAINER, FlagValues::int32);
        int total = given.parse(MAX_DEAD_CONTAINERS, FlagValues::int32);
        try {
            return new GCPolicy(minAge, perContainer, total);
        } catch (IllegalArgumentException e) {
            throw new FlagsException(e.getMessage(), e);
        }
    }

    /** pflag's warning for each deprecated flag on the command line (once, however often it is given), in flag order. */
    private static List<String> deprecationWarnings(GivenFlags given) {
        List<String> warnings = new ArrayList<>();
        for (FlagSpec flag : KubeletFlagSpecs.settingFlags()) {
            if (flag.deprecation() != null && given.given(flag)) {
                warnings.add(flag.deprecationWarning());
            }
        }
        return warnings;
    }

    private static Map<String, String> nodeLabels(GivenFlags given) throws FlagsException {
        Map<String, String> labels = new LinkedHashMap<>();
        for (String value : given.values(NODE_LABELS)) {
            try {
                labels.putAll(FlagValues.pairs(value, '='));
            } catch (BadValue e) {
                throw NODE_LABELS.invalidArgument(value, e);
            }
        }
        NodeLabelsValidation.validate(labels);
        return labels;
    }

    private static int cadvisorPort(GivenFlags given) throws FlagsException {
        int port = given.parse(CADVISOR_PORT, FlagValues::int32);
        if (port < 0 || port > 65535) {
            throw new FlagsException("invalid argument " + FlagValues.quote(given.last(CADVISOR_PORT)) + " for \""
                    + CADVISOR_PORT.longName() + "\" flag: must be between 0 and 65535, inclusive");
        }
        return port;
    }
}
