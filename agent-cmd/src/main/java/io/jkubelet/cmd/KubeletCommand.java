package io.jkubelet.cmd;

import io.jkubelet.cmd.ConfigFlags.ConfigFlag;
import io.jkubelet.cmd.FlagValues.BadValue;
import io.jkubelet.core.apis.config.InvalidKubeletConfigurationException;
import io.jkubelet.core.eviction.EvictionConfig;
import io.jkubelet.core.eviction.ThresholdParser;
import io.jkubelet.core.apis.config.FeatureGates;
import io.jkubelet.core.apis.config.KubeletConfiguration;
import io.jkubelet.core.apis.config.KubeletConfigurationValidator;
import io.jkubelet.core.apis.config.GoDuration;
import io.jkubelet.core.cm.QosReserved;
import io.jkubelet.core.container.GCPolicy;
import io.jkubelet.core.credentialprovider.plugin.CredentialProviderPlugins;
import io.jkubelet.core.objects.ChangeDetectionStrategy;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The kubelet's command line, parsed as the kubelet (pflag) parses it: {@code --flag=value},
 * {@code --flag value}, booleans as {@code --flag} or {@code --flag=true|false}, a repeated flag's
 * last value wins (list and map flags accumulate), and no positional arguments.
 *
 * <p>Precedence is the kubelet's: with {@code --config}, the file (with the v1beta1 defaults) is the
 * base, the {@code --config-dir} drop-ins are merged over it, and only the flags present on the command line
 * override both; without it, the flag defaults
 * apply, which differ from the v1beta1 defaults for anonymous authentication (true), token webhook
 * (false), authorization mode (AlwaysAllow) and the read-only port (10255). The result is validated.
 * Stateless and thread-safe.
 */
public final class KubeletCommand {

    static final String NAME = "jkubelet";

    private static final FlagSpec CONFIG = FlagSpec.of("config", "string", "Path to a KubeletConfiguration "
            + "file (kubelet.config.k8s.io/v1beta1, YAML or JSON). Flags given on the command line override "
            + "its values; values neither in the file nor on the command line take the v1beta1 defaults.");
    private static final FlagSpec CONFIG_DIR = FlagSpec.of("config-dir", "string", "Path to a directory of "
            + "drop-ins: every *.conf file in it (in lexical order, sub-directories included) is a KubeletConfiguration "
            + "merged over the --config file (scalars and lists replaced, structs and maps merged per key); flags "
            + "given on the command line override them. [default='']");
    private static final FlagSpec KUBECONFIG = FlagSpec.of("kubeconfig", "string", "Path to a kubeconfig file "
            + "saying how to connect to the apiserver. Without it the kubelet runs standalone.");
    private static final FlagSpec BOOTSTRAP_KUBECONFIG = FlagSpec.of("bootstrap-kubeconfig", "string",
            "Path to a kubeconfig file used to get a client certificate for the kubelet.");
    private static final FlagSpec HOSTNAME_OVERRIDE = FlagSpec.of("hostname-override", "string",
            "The node name to use instead of the host name.");
    private static final FlagSpec NODE_IP = FlagSpec.of("node-ip", "string", "IP address (or comma-separated "
            + "dual-stack IP addresses) of the node. If unset, kubelet will use the node's default IPv4 address, if any, "
            + "or its default IPv6 address if it has no IPv4 addresses. You can pass '::' to make it prefer the default "
            + "IPv6 address rather than the default IPv4 address.");
    private static final FlagSpec ROOT_DIR = FlagSpec.of("root-dir", "string", "Directory for the kubelet's "
            + "files (volume mounts, etc.). (default \"" + KubeletFlags.DEFAULT_ROOT_DIRECTORY + "\")");
    private static final FlagSpec CERT_DIR = FlagSpec.of("cert-dir", "string", "Directory of the TLS "
            + "certificates; ignored when --tls-cert-file and --tls-private-key-file are given. (default \""
            + KubeletFlags.DEFAULT_CERT_DIRECTORY + "\")");
    private static final FlagSpec NODE_LABELS = FlagSpec.of("node-labels", "key=value", "Labels to add when "
            + "registering the node, as comma-separated key=value pairs. Repeatable. Labels in the 'kubernetes.io' "
            + "namespace must begin with an allowed prefix (kubelet.kubernetes.io, node.kubernetes.io) or be in the "
            + "specifically allowed set (beta.kubernetes.io/arch, beta.kubernetes.io/instance-type, beta.kubernetes.io/os, "
            + "failure-domain.beta.kubernetes.io/region, failure-domain.beta.kubernetes.io/zone, kubernetes.io/arch, "
            + "kubernetes.io/hostname, kubernetes.io/os, node.kubernetes.io/instance-type, topology.kubernetes.io/region, "
            + "topology.kubernetes.io/zone)");
    private static final FlagSpec CONTAINER_LOGS_DIR = FlagSpec.of("container-logs-dir", "string",
            "(jkubelet) Directory of the per-container log symlinks. (default \""
                    + KubeletFlags.DEFAULT_CONTAINER_LOGS_DIR + "\")");
    private static final FlagSpec POD_INFRA_CONTAINER_IMAGE = FlagSpec.of("pod-infra-container-image", "string",
            "The image of each pod's sandbox container. (default \""
                    + KubeletFlags.DEFAULT_POD_INFRA_CONTAINER_IMAGE + "\")");
    /** What pflag says of the container GC flags (upstream {@code KubeletFlags}, deprecated since v1.x). */
    private static final String USE_EVICTION = "Use --eviction-hard or --eviction-soft instead. Will be removed in a "
            + "future version.";
    private static final FlagSpec MINIMUM_CONTAINER_TTL = FlagSpec.of("minimum-container-ttl-duration", "duration",
            "Minimum age for a finished container before it is garbage collected.  Examples: '300ms', '10s' or "
                    + "'2h45m'").deprecated(USE_EVICTION);
    private static final FlagSpec MAX_DEAD_PER_CONTAINER = FlagSpec.of("maximum-dead-containers-per-container", "int32",
            "Maximum number of old instances to retain per container.  Each container takes up some disk space. "
                    + "(default 1)").deprecated(USE_EVICTION);
    private static final FlagSpec MAX_DEAD_CONTAINERS = FlagSpec.of("maximum-dead-containers", "int32",
            "Maximum number of old instances of containers to retain globally.  Each container takes up some disk "
                    + "space. To disable, set to a negative number. (default -1)").deprecated(USE_EVICTION);
    private static final FlagSpec CADVISOR_PORT = FlagSpec.of("cadvisor-port", "int32", "The port of the node's "
            + "dashboard over plain HTTP with no authentication, where cAdvisor's page was (conventionally "
            + KubeletFlags.CADVISOR_PORT_BY_CONVENTION + "); bound to 127.0.0.1 unless --address is given; 0 disables "
            + "it. The dashboard is also at /dashboard/ on the secure port and the read-only port. (default 0)");
    private static final FlagSpec IMAGE_CREDENTIAL_PROVIDER_CONFIG = FlagSpec.of("image-credential-provider-config",
            "string", "The path to the credential provider plugin config file.");
    private static final FlagSpec IMAGE_CREDENTIAL_PROVIDER_BIN_DIR = FlagSpec.of("image-credential-provider-bin-dir",
            "string", "The path to the directory where credential provider plugin binaries are located.");
    private static final FlagSpec VERSION = new FlagSpec("version", null, "raw", false,
            "Print version information and quit; --version=raw prints more as JSON.");
    private static final FlagSpec HELP = new FlagSpec("help", "h", "bool", true, "Help for " + NAME + ".");

    private static final List<FlagSpec> NODE_FLAGS = List.of(CONFIG, CONFIG_DIR, KUBECONFIG, BOOTSTRAP_KUBECONFIG,
            HOSTNAME_OVERRIDE, NODE_IP, ROOT_DIR, CERT_DIR, NODE_LABELS, CONTAINER_LOGS_DIR,
            POD_INFRA_CONTAINER_IMAGE, MINIMUM_CONTAINER_TTL, MAX_DEAD_PER_CONTAINER, MAX_DEAD_CONTAINERS, CADVISOR_PORT,
            IMAGE_CREDENTIAL_PROVIDER_CONFIG, IMAGE_CREDENTIAL_PROVIDER_BIN_DIR);

    private KubeletCommand() {
    }

    /**
     * Parses the command line and builds the effective, validated configuration.
     *
     * @return {@link KubeletInvocation.Run} with the server to start, or
     *         {@link KubeletInvocation.PrintAndExit} for {@code --help} and {@code --version}
     * @throws FlagsException for every bad input, with a message naming the flag, file or field
     */
    public static KubeletInvocation parse(String[] args) throws FlagsException {
        ParseResult parsed = tokenize(args);
        if (parsed.hasMatchedOption(HELP.longName()) && lastBool(parsed, HELP)) {
            return new KubeletInvocation.PrintAndExit(usage());
        }
        if (parsed.hasMatchedOption(VERSION.longName())) {
            String version = last(parsed, VERSION, "false");
            if (version.equals("raw")) {
                return new KubeletInvocation.PrintAndExit(KubeletVersion.rawVersion());
            }
            if (parseOrFail(VERSION, version, FlagValues::bool)) {
                return new KubeletInvocation.PrintAndExit(KubeletVersion.versionLine());
            }
        }
        // Bad flag values are reported before the file is read, as the kubelet parses all flags first.
        applyConfigFlags(parsed, KubeletConfiguration.builder());

        String configFile = last(parsed, CONFIG, "");
        KubeletConfiguration base = BaseConfiguration.of(configFile, last(parsed, CONFIG_DIR, ""));
        // The flags on the command line win over the file and the drop-ins, as upstream re-parses them last.
        KubeletConfiguration.Builder builder = KubeletConfiguration.builder().from(base);
        applyConfigFlags(parsed, builder);
        // Built once: the running kubelet gets an immutable configuration.
        KubeletConfiguration config = builder.build();
        List<String> gateWarnings = checkFeatureGates(config);
        validate(config);
        config = ReservedCpus.apply(config, ReservedCpus.online());
        KubeletFlags flags = new KubeletFlags(
                configFile,
                last(parsed, KUBECONFIG, ""),
                last(parsed, BOOTSTRAP_KUBECONFIG, ""),
                last(parsed, HOSTNAME_OVERRIDE, ""),
                String.join(",", NodeIps.parse(last(parsed, NODE_IP, ""))),
                last(parsed, ROOT_DIR, KubeletFlags.DEFAULT_ROOT_DIRECTORY),
                last(parsed, CERT_DIR, KubeletFlags.DEFAULT_CERT_DIRECTORY),
                nodeLabels(parsed),
                last(parsed, CONTAINER_LOGS_DIR, KubeletFlags.DEFAULT_CONTAINER_LOGS_DIR),
                last(parsed, POD_INFRA_CONTAINER_IMAGE, KubeletFlags.DEFAULT_POD_INFRA_CONTAINER_IMAGE),
                containerGcPolicy(parsed),
                config.logging().verbosity(),
                cadvisorPort(parsed),
                parsed.hasMatchedOption("address") ? config.address() : KubeletFlags.DEFAULT_CADVISOR_ADDRESS,
                new CredentialProviderPlugins.Flags(last(parsed, IMAGE_CREDENTIAL_PROVIDER_CONFIG, ""),
                        last(parsed, IMAGE_CREDENTIAL_PROVIDER_BIN_DIR, "")));
        changeDetectionStrategy(config);
        qosReserved(config);
        List<String> warnings = new ArrayList<>(deprecationWarnings(parsed));
        warnings.addAll(gateWarnings);
        return new KubeletInvocation.Run(new KubeletServer(flags, config, eviction(config)), warnings);
    }

    /** The {@code --help} text. */
    public static String usage() {
        return new CommandLine(spec()).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    private static void applyConfigFlags(ParseResult parsed, KubeletConfiguration.Builder config)
            throws FlagsException {
        for (ConfigFlag flag : ConfigFlags.ALL) {
            List<String> values = values(parsed, flag.spec());
            for (int i = 0; i < values.size(); i++) {
                String value = values.get(i);
                try {
                    flag.setter().set(config, value, values.subList(0, i));
                } catch (BadValue e) {
                    throw invalidArgument(flag.spec(), value, e);
                }
            }
        }
    }

    /**
     * The feature gates of the file, the drop-ins and {@code --feature-gates} together, checked as upstream's
     * {@code SetFromMap} checks them before the configuration is validated; returns its warnings (GA and deprecated
     * gates set).
     */
    private static List<String> checkFeatureGates(KubeletConfiguration config) throws FlagsException {
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
    static ChangeDetectionStrategy changeDetectionStrategy(KubeletConfiguration config) throws FlagsException {
        try {
            return ChangeDetectionStrategy.of(config.configMapAndSecretChangeDetectionStrategy());
        } catch (IllegalArgumentException e) {
            throw new FlagsException(e.getMessage(), e);
        }
    }

    /** {@code qosReserved}, parsed at start as upstream parses it whatever its gate says ({@link QosReserved}). */
    static void qosReserved(KubeletConfiguration config) throws FlagsException {
        try {
            QosReserved.parse(config.qosReserved());
        } catch (IllegalArgumentException e) {
            throw new FlagsException(e.getMessage(), e);
        }
    }

    /** The deprecated container GC flags, with upstream's defaults: no minimum age, one per container, no node limit. */
    private static GCPolicy containerGcPolicy(ParseResult parsed) throws FlagsException {
        GCPolicy defaults = GCPolicy.DEFAULT;
        Duration minAge = parseOrFail(MINIMUM_CONTAINER_TTL, last(parsed, MINIMUM_CONTAINER_TTL,
                GoDuration.format(defaults.minAge())), FlagValues::duration);
        int perContainer = parseOrFail(MAX_DEAD_PER_CONTAINER, last(parsed, MAX_DEAD_PER_CONTAINER,
                String.valueOf(defaults.maxPerPodContainer())), FlagValues::int32);
        int total = parseOrFail(MAX_DEAD_CONTAINERS, last(parsed, MAX_DEAD_CONTAINERS,
                String.valueOf(defaults.maxContainers())), FlagValues::int32);
        try {
            return new GCPolicy(minAge, perContainer, total);
        } catch (IllegalArgumentException e) {
            throw new FlagsException(e.getMessage(), e);
        }
    }

    /** pflag's warning for each deprecated flag on the command line (once, however often it is given), in flag order. */
    private static List<String> deprecationWarnings(ParseResult parsed) {
        List<String> warnings = new ArrayList<>();
        List<FlagSpec> flags = new ArrayList<>(NODE_FLAGS);
        ConfigFlags.ALL.forEach(flag -> flags.add(flag.spec()));
        for (FlagSpec flag : flags) {
            if (flag.deprecation() != null && parsed.hasMatchedOption(flag.longName())) {
                warnings.add(flag.deprecationWarning());
            }
        }
        return warnings;
    }

    private static Map<String, String> nodeLabels(ParseResult parsed) throws FlagsException {
        Map<String, String> labels = new LinkedHashMap<>();
        for (String value : values(parsed, NODE_LABELS)) {
            try {
                labels.putAll(FlagValues.pairs(value, '='));
            } catch (BadValue e) {
                throw invalidArgument(NODE_LABELS, value, e);
            }
        }
        NodeLabelsValidation.validate(labels);
        return labels;
    }

    // --- picocli: tokenizing only; values are parsed above with Go's rules and messages ---

    private static CommandSpec spec() {
        CommandSpec spec = CommandSpec.create().name(NAME);
        spec.usageMessage()
                .headerHeading("")
                .customSynopsis(NAME + " [flags]")
                .header(NAME + " - the Kubernetes node agent on Docker, compatible with kubelet "
                        + KubeletVersion.compatVersion() + ".")
                .descriptionHeading("%n")
                .description("Runs the pods assigned to this node: from static pod files (--pod-manifest-path), "
                        + "a URL (--manifest-url) and, with --kubeconfig, the apiserver. Most settings can also "
                        + "be given in a KubeletConfiguration file (--config); flags override the file.")
                .optionListHeading("%nFlags:%n")
                .sortOptions(true)
                .width(110);
        List<FlagSpec> all = new ArrayList<>(NODE_FLAGS);
        for (ConfigFlag flag : ConfigFlags.ALL) {
            all.add(flag.spec());
        }
        all.add(VERSION);
        all.add(HELP);
        for (FlagSpec flag : all) {
            String[] names = flag.shorthand() == null ? new String[] {flag.longName()}
                    : new String[] {"-" + flag.shorthand(), flag.longName()};
            OptionSpec.Builder option = OptionSpec.builder(names)
                    .type(List.class).auxiliaryTypes(String.class)
                    .paramLabel(flag.paramLabel())
                    // picocli formats descriptions: a literal '%' must be doubled. Deprecated flags stay in the help,
                    // marked as pflag marks them: upstream un-hides them ("silently deprecating ... is unkind").
                    .description((flag.deprecation() == null ? flag.description()
                            : flag.description() + " (DEPRECATED: " + flag.deprecation() + ")").replace("%", "%%"));
            if (flag.isBoolean()) {
                option.arity("0..1").fallbackValue("true").paramLabel("true|false");
            } else if (flag == VERSION) {
                option.arity("0..1").fallbackValue("true").paramLabel("raw");
            } else {
                option.arity("1");
            }
            spec.addOption(option.build());
        }
        return spec;
    }

    private static ParseResult tokenize(String[] args) throws FlagsException {
        CommandLine commandLine = new CommandLine(spec());
        commandLine.setExpandAtFiles(false); // "@file" is an ordinary value for the kubelet
        commandLine.setAbbreviatedOptionsAllowed(false);
        commandLine.setUnmatchedArgumentsAllowed(false);
        commandLine.setOverwrittenOptionsAllowed(true);
        commandLine.setTrimQuotes(false);
        try {
            return commandLine.parseArgs(args);
        } catch (CommandLine.UnmatchedArgumentException e) {
            throw unmatched(e.getUnmatched());
        } catch (CommandLine.MissingParameterException e) {
            ArgSpec missing = e.getMissing() == null || e.getMissing().isEmpty() ? e.getArgSpec() : e.getMissing().get(0);
            throw new FlagsException("flag needs an argument: " + flagName(missing, args));
        } catch (CommandLine.ParameterException e) {
            throw new FlagsException(e.getMessage(), e);
        }
    }

    private static FlagsException unmatched(List<String> unmatched) {
        String first = unmatched.isEmpty() ? "" : unmatched.get(0);
        if (first.startsWith("--") && first.length() > 2) {
            int eq = first.indexOf('=');
            return new FlagsException("unknown flag: " + (eq < 0 ? first : first.substring(0, eq)));
        }
        if (first.startsWith("-") && first.length() > 1) {
            return new FlagsException("unknown shorthand flag: '" + first.charAt(1) + "' in " + first);
        }
        return new FlagsException("unknown command " + FlagValues.quote(first) + " for \"" + NAME + "\"");
    }

    private static String flagName(ArgSpec spec, String[] args) {
        if (spec instanceof OptionSpec option) {
            String shortName = option.shortestName();
            for (String arg : args) {
                if (arg.equals(shortName) && !shortName.startsWith("--")) {
                    return "'" + shortName.substring(1) + "' in " + shortName;
                }
            }
            return option.longestName();
        }
        return String.valueOf(spec);
    }

    private static int cadvisorPort(ParseResult parsed) throws FlagsException {
        String value = last(parsed, CADVISOR_PORT, "0");
        int port = parseOrFail(CADVISOR_PORT, value, FlagValues::int32);
        if (port < 0 || port > 65535) {
            throw new FlagsException("invalid argument " + FlagValues.quote(value) + " for \"--cadvisor-port\" flag: "
                    + "must be between 0 and 65535, inclusive");
        }
        return port;
    }

    private static List<String> values(ParseResult parsed, FlagSpec flag) {
        List<String> values = parsed.matchedOptionValue(flag.longName(), List.<String>of());
        return values == null ? List.of() : values;
    }

    private static String last(ParseResult parsed, FlagSpec flag, String fallback) {
        List<String> values = values(parsed, flag);
        return values.isEmpty() ? fallback : values.get(values.size() - 1);
    }

    private static boolean lastBool(ParseResult parsed, FlagSpec flag) throws FlagsException {
        return parseOrFail(flag, last(parsed, flag, "false"), FlagValues::bool);
    }

    @FunctionalInterface
    private interface Parser<T> {
        T parse(String value) throws BadValue;
    }

    private static <T> T parseOrFail(FlagSpec flag, String value, Parser<T> parser) throws FlagsException {
        try {
            return parser.parse(value);
        } catch (BadValue e) {
            throw invalidArgument(flag, value, e);
        }
    }

    /** pflag's wording: {@code invalid argument "abc" for "--port" flag: strconv.ParseInt: ...}. */
    private static FlagsException invalidArgument(FlagSpec flag, String value, BadValue e) {
        return new FlagsException("invalid argument " + FlagValues.quote(value) + " for \"" + flag.display()
                + "\" flag: " + e.getMessage(), e);
    }
}
